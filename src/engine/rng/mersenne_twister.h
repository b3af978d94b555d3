// Boost.Random's mt19937 and mt19937_64 behind the Rng interface. The engines' raw outputs are
// fixed by their specification; the bits-to-double step is ours, not the standard library's
// (std::generate_canonical differs between libraries), so results are portable:
//   mt19937:    (a >> 5) * 2^26 + (b >> 6), divided by 2^53  (two draws; Matsumoto's genrand_res53)
//   mt19937_64: (x >> 11) divided by 2^53
#pragma once

#include "engine/rng/rng.h"

#include <boost/random/mersenne_twister.hpp>

namespace logitlab::engine {

class Mt19937 final : public Rng {
public:
    // boost::random::mt19937 takes a 32-bit seed: the low 32 bits of seed are used.
    explicit Mt19937(std::uint64_t seed) : m_seed(seed), m_engine(static_cast<std::uint32_t>(seed)) {}

    std::uint32_t nextU32() { return static_cast<std::uint32_t>(m_engine()); }
    double nextDouble() override
    {
        const std::uint64_t a = nextU32() >> 5;
        const std::uint64_t b = nextU32() >> 6;
        return static_cast<double>(a * 67108864u + b) / 9007199254740992.0;
    }
    std::string name() const override { return "mt19937"; }
    std::uint64_t seed() const override { return m_seed; }
    std::unique_ptr<Rng> clone() const override { return std::make_unique<Mt19937>(*this); }

private:
    std::uint64_t m_seed;
    boost::random::mt19937 m_engine;
};

class Mt19937_64 final : public Rng {
public:
    explicit Mt19937_64(std::uint64_t seed) : m_seed(seed), m_engine(seed) {}

    std::uint64_t nextU64() { return static_cast<std::uint64_t>(m_engine()); }
    double nextDouble() override { return static_cast<double>(nextU64() >> 11) / 9007199254740992.0; }
    std::string name() const override { return "mt19937_64"; }
    std::uint64_t seed() const override { return m_seed; }
    std::unique_ptr<Rng> clone() const override { return std::make_unique<Mt19937_64>(*this); }

private:
    std::uint64_t m_seed;
    boost::random::mt19937_64 m_engine;
};

}  // namespace logitlab::engine
