// Derives an independent seed for each work item from (base seed, item index) with SplitMix64,
// so a run split into items gives the same numbers whatever the thread count or schedule.
#pragma once

#include <cstdint>

namespace logitlab::engine {

// One SplitMix64 step (Steele, Lea and Flood 2014): advances state and returns a mixed value.
constexpr std::uint64_t splitMix64(std::uint64_t& state)
{
    state += 0x9e3779b97f4a7c15ull;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// The seed of work item `index` in a run seeded with `base`. Mixing twice keeps nearby bases
// and nearby indices from giving related streams.
constexpr std::uint64_t streamSeed(std::uint64_t base, std::uint64_t index)
{
    std::uint64_t state = base;
    const std::uint64_t mixedBase = splitMix64(state);
    state = mixedBase ^ index;
    return splitMix64(state);
}

// The seed of a chain's random stages (XTC's coin) when its draws use `seed`. llama.cpp seeds
// both with the same seed, but XTC takes a float (one 32-bit output) where dist takes a double
// (two), so its streams drift apart; two copies of one generator here would stay in lockstep
// (the coin would choose the half of [0, 1) the draw then lands in), so the stages get a
// stream of their own.
constexpr std::uint64_t randomStageSeed(std::uint64_t seed) { return streamSeed(seed, 1); }

}  // namespace logitlab::engine
