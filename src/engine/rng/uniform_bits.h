// 64 uniform bits from each concrete engine, without the virtual Rng interface, so the
// Monte Carlo hot loops are templated on the engine and inline its step.
#pragma once

#include "engine/rng/mersenne_twister.h"
#include "engine/rng/mulberry32.h"

#include <cstdint>

namespace logitlab::engine {

inline std::uint64_t nextU64(Mulberry32& engine)
{
    const std::uint64_t high = engine.nextU32();
    return (high << 32) | engine.nextU32();
}

inline std::uint64_t nextU64(Mt19937& engine)
{
    const std::uint64_t high = engine.nextU32();
    return (high << 32) | engine.nextU32();
}

inline std::uint64_t nextU64(Mt19937_64& engine) { return engine.nextU64(); }

// Calls body(engine) with a fresh engine of the named kind seeded with `seed`. Returns false for
// an unknown name (see rngNames()).
template <class Body>
bool withEngine(const std::string& name, std::uint64_t seed, Body&& body)
{
    if (name == "mulberry32") {
        Mulberry32 engine(seed);
        body(engine);
    } else if (name == "mt19937") {
        Mt19937 engine(seed);
        body(engine);
    } else if (name == "mt19937_64") {
        Mt19937_64 engine(seed);
        body(engine);
    } else {
        return false;
    }
    return true;
}

}  // namespace logitlab::engine
