// mulberry32, bit-exact with the lesson's JavaScript: the same 32-bit wrap-around arithmetic
// (Math.imul is a 32-bit multiply, |0 and >>>0 are wraps), and the output divided by 2^32.
#pragma once

#include "engine/rng/rng.h"

namespace logitlab::engine {

class Mulberry32 final : public Rng {
public:
    // JavaScript coerces the seed with ToInt32, i.e. modulo 2^32: only the low 32 bits count.
    explicit Mulberry32(std::uint64_t seed) : m_seed(seed), m_state(static_cast<std::uint32_t>(seed)) {}

    std::uint32_t nextU32()
    {
        m_state += 0x6d2b79f5u;
        std::uint32_t t = (m_state ^ (m_state >> 15)) * (1u | m_state);
        t = (t + ((t ^ (t >> 7)) * (61u | t))) ^ t;
        return t ^ (t >> 14);
    }

    double nextDouble() override { return nextU32() / 4294967296.0; }
    std::string name() const override { return "mulberry32"; }
    std::uint64_t seed() const override { return m_seed; }
    std::unique_ptr<Rng> clone() const override { return std::make_unique<Mulberry32>(*this); }

private:
    std::uint64_t m_seed;
    std::uint32_t m_state;
};

}  // namespace logitlab::engine
