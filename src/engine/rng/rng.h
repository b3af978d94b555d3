// The one small interface every random source in LogitLab sits behind. Each engine turns its raw
// bits into a double in [0, 1) with a documented rule, so a (name, seed) pair gives the same
// stream on every platform and standard library.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace logitlab::engine {

class Rng {
public:
    virtual ~Rng() = default;

    virtual double nextDouble() = 0;                 // uniform in [0, 1)
    virtual std::string name() const = 0;            // e.g. "mulberry32"
    virtual std::uint64_t seed() const = 0;          // the seed it was created with
    virtual std::unique_ptr<Rng> clone() const = 0;  // same state, independent from now on
};

}  // namespace logitlab::engine
