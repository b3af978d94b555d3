// Vose's alias table: O(1) draws from a fixed discrete distribution. Built once per distribution,
// then each draw is one 64-bit random word, one multiply and one table read, which is what lets
// Monte Carlo runs draw hundreds of millions of real token indices per second.
#pragma once

#include <cstdint>
#include <vector>

namespace logitlab::engine {

// GCC/Clang's 128-bit integer; __extension__ keeps -Wpedantic quiet about it.
__extension__ typedef unsigned __int128 Uint128;

class AliasTable {
public:
    // weights: non-negative, finite, not all zero; need not sum to 1. At most 2^31 entries.
    explicit AliasTable(const std::vector<double>& weights);

    std::uint32_t size() const { return m_size; }

    // Index drawn with 64 uniform bits. The high part of bits * size picks the column (bias
    // below size / 2^64); the low part, which is uniform on a grid of step size / 2^64, is the
    // coin compared with the column's 32-bit threshold. No second random word is needed.
    std::uint32_t draw(std::uint64_t bits) const
    {
        const Uint128 product = static_cast<Uint128>(bits) * m_size;
        const auto column = static_cast<std::uint32_t>(product >> 64);
        const auto coin = static_cast<std::uint32_t>(static_cast<std::uint64_t>(product) >> 32);
        const Entry entry = m_entries[column];
        return coin < entry.threshold ? column : entry.alias;
    }

    // The probability of each index as this table actually draws it (thresholds are rounded to
    // 1/2^32 of a column), for tests and for reporting what was really sampled.
    std::vector<double> probabilities() const;

private:
    struct Entry {
        std::uint32_t threshold;  // keep the column when coin < threshold (coin in [0, 2^32))
        std::uint32_t alias;      // else this index; full columns alias themselves
    };
    std::vector<Entry> m_entries;
    std::uint32_t m_size = 0;
};

}  // namespace logitlab::engine
