// Goodness-of-fit statistics for checking draws against the probabilities they claim to follow.
#pragma once

#include <cstdint>
#include <vector>

namespace logitlab::engine {

struct FitTest {
    double statistic = 0.0;
    int degreesOfFreedom = 0;
    double pValue = 1.0;  // probability of a statistic at least this large if the sampler is right
};

// Pearson's chi-square of observed counts against expected probabilities (same length, the
// probabilities summing to 1). Bins with expected probability 0 must have count 0, else the
// p-value is 0. Degrees of freedom: bins with non-zero expectation, minus one.
FitTest chiSquareTest(const std::vector<std::uint64_t>& observed, const std::vector<double>& expected);

// P(at least one junk token in n steps) when each step picks junk with probability q.
double probabilityAtLeastOnce(double q, double n);

}  // namespace logitlab::engine
