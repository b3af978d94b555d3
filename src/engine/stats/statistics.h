// Goodness-of-fit statistics for checking draws against the probabilities they claim to follow.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace logitlab::engine {

struct FitTest {
    double statistic = 0.0;
    int degreesOfFreedom = 0;
    double pValue = 1.0;  // probability of a statistic at least this large if the sampler is right
    // False when there is nothing to test: 0 degrees of freedom (one outcome, or every bin pooled
    // into one), or expectations that are not probabilities. pValue is then 1 and means nothing.
    bool tested = false;
    // The G-test's Williams correction q: pValue is that of statistic / q (1 for chi-square).
    double correction = 1.0;
};

// Pearson's chi-square of observed counts against expected probabilities (same length, the
// probabilities summing to 1). Bins with expected probability 0 must have count 0, else the
// p-value is 0. Degrees of freedom: bins with non-zero expectation, minus one.
FitTest chiSquareTest(const std::vector<std::uint64_t>& observed, const std::vector<double>& expected);

// The likelihood-ratio G-test, G = 2 * sum(o * ln(o / e)) (statistic: scipy's power_divergence
// with lambda "log-likelihood"), with the same bins and degrees of freedom as chiSquareTest. The
// p-value is that of G / q with Williams' correction q = 1 + (sum 1/p_i - 1) / (6 n dof): G itself
// runs high against chi-square when bins expect few draws (3% at 5 per bin), which a KS over
// many seeds' p-values detects; G / q is close enough from 10 expected draws per bin.
FitTest gTest(const std::vector<std::uint64_t>& observed, const std::vector<double>& expected);

// Merges bins so every merged bin expects at least `minExpected` of `total` draws: both tests
// are only chi-square distributed when expected counts are not tiny. Bins are merged in the
// order given (callers pass them most probable first, so the tail is pooled). Returns, per
// original bin, the index of its merged bin; `mergedExpected` receives the merged probabilities.
std::vector<std::size_t> poolSmallBins(const std::vector<double>& expected, std::uint64_t total, double minExpected,
                                       std::vector<double>& mergedExpected);

struct KsTest {
    double statistic = 0.0;  // D: largest gap between the empirical and the uniform CDF
    double pValue = 1.0;
    bool tested = false;  // false without values (pValue is then 1 and means nothing)
    // How pValue was computed: kolmogorovMethodName() of the region (D, n) falls in.
    std::string method;
};

// P(D_n >= d) for the two-sided one-sample Kolmogorov-Smirnov statistic of n values, by the
// regions scipy's kstest (method 'exact', and 'auto' below 10,001 values) uses: closed forms at
// the ends (Ruben-Gambino), twice Smirnov's exact one-sided probability where the two sides
// cannot or hardly can both reach d (exact at d >= 0.5; n d^2 >= 2.2 for n > 140, >= 4 for
// n <= 140, where it is high by less than 1e-6 of p), and in between the
// exact distribution by Durbin's matrix as Marsaglia, Tsang and Wang compute it. Where that
// matrix would be too large (n d > 150: n in the tens of thousands) Stephens' corrected
// asymptotic formula, and `method` says so.
double kolmogorovSurvivalExact(int n, double d, std::string* method = nullptr);

// One-sample Kolmogorov-Smirnov test of values against Uniform(0, 1), p-value by
// kolmogorovSurvivalExact(). NaN values are left out.
KsTest ksUniformTest(std::vector<double> values);

// P(X >= statistic) for X chi-square distributed with `degreesOfFreedom`; 1 for dof < 1 or a
// statistic that is NaN or <= 0, 0 for +inf. Never throws (Boost.Math reports bad parameters by
// exception; they are checked here first, and anything it still raises becomes "no evidence").
double chiSquareSurvival(double statistic, int degreesOfFreedom);

// P(at least one junk token in n steps) when each step picks junk with probability q.
double probabilityAtLeastOnce(double q, double n);
// (1 - q)^n, its complement: the chance that none of n independent steps hits (q = 1 gives 0).
double probabilityNever(double q, double n);

}  // namespace logitlab::engine
