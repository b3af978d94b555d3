// A 64-bit fingerprint of a drawn token sequence (FNV-1a over each id's four little-endian
// bytes): two runs that drew the same ids in the same order have the same hash, so a replay can
// be checked without storing the sequence.
#pragma once

#include <cstdint>

namespace logitlab::engine {

class SequenceHash {
public:
    void add(std::int32_t id)
    {
        auto bits = static_cast<std::uint32_t>(id);
        for (int byte = 0; byte < 4; ++byte) {
            m_value = (m_value ^ (bits & 0xffu)) * 0x100000001b3ull;
            bits >>= 8;
        }
    }
    std::uint64_t value() const { return m_value; }

private:
    std::uint64_t m_value = 0xcbf29ce484222325ull;
};

}  // namespace logitlab::engine
