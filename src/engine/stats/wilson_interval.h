// The Wilson score interval for a binomial proportion: honest error bars for Monte Carlo
// estimates, including at 0 and 1 hits where the normal approximation collapses to a point.
#pragma once

#include <cstdint>

namespace logitlab::engine {

struct Interval {
    double low = 0.0;
    double high = 1.0;
};

// z = 1.959963984540054 gives the two-sided 95% interval. trials == 0 gives [0, 1].
Interval wilsonInterval(std::uint64_t successes, std::uint64_t trials, double z = 1.959963984540054);

}  // namespace logitlab::engine
