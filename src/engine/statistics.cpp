#include "statistics.h"

#include <boost/math/distributions/chi_squared.hpp>
#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace logitlab::engine {

namespace {

// Shared by the two tests: `term(o, e)` is a bin's contribution; impossible counts fail.
template <class Term>
FitTest fitTest(const std::vector<std::uint64_t>& observed, const std::vector<double>& expected, Term term)
{
    assert(observed.size() == expected.size());
    std::uint64_t total = 0;
    for (auto count : observed)
        total += count;

    FitTest test;
    int bins = 0;
    for (std::size_t i = 0; i < observed.size(); ++i) {
        if (!(expected[i] >= 0.0 && expected[i] <= 1.0))
            return FitTest{};  // not a probability (NaN from upstream): no test, rather than a NaN one
        const double e = expected[i] * static_cast<double>(total);
        if (e == 0.0) {
            if (observed[i] != 0) {
                test.statistic = std::numeric_limits<double>::infinity();
                test.pValue = 0.0;
            }
            continue;
        }
        test.statistic += term(static_cast<double>(observed[i]), e);
        ++bins;
    }
    test.degreesOfFreedom = std::max(bins - 1, 0);
    if (std::isinf(test.statistic)) {
        test.tested = true;  // a count where nothing was expected fails whatever the bins
        return test;
    }
    if (test.degreesOfFreedom == 0 || std::isnan(test.statistic)) {
        test.pValue = 1.0;  // one outcome: every count is what it must be, and there is no test
        return test;
    }
    test.tested = true;
    test.statistic = std::max(test.statistic, 0.0);  // G can round to a hair below 0
    test.pValue = chiSquareSurvival(test.statistic, test.degreesOfFreedom);
    return test;
}

// Q(lambda) = P(K > lambda) for the Kolmogorov distribution, from whichever of its two series
// converges fast at this lambda.
double kolmogorovSurvival(double lambda)
{
    if (lambda <= 0.0)
        return 1.0;
    if (lambda < 1.18) {
        // 1 - sqrt(2 pi)/lambda * sum_k exp(-(2k-1)^2 pi^2 / (8 lambda^2))
        const double a = -std::numbers::pi * std::numbers::pi / (8.0 * lambda * lambda);
        double sum = 0.0;
        for (int k = 1; k <= 20; ++k)
            sum += std::exp(a * (2 * k - 1) * (2 * k - 1));
        return std::clamp(1.0 - std::sqrt(2.0 * std::numbers::pi) / lambda * sum, 0.0, 1.0);
    }
    // 2 * sum_k (-1)^(k-1) exp(-2 k^2 lambda^2)
    double sum = 0.0;
    for (int k = 1; k <= 100; ++k) {
        const double term = std::exp(-2.0 * k * k * lambda * lambda);
        sum += (k % 2 == 1 ? term : -term);
        if (term < 1e-17)
            break;
    }
    return std::clamp(2.0 * sum, 0.0, 1.0);
}

}  // namespace

FitTest chiSquareTest(const std::vector<std::uint64_t>& observed, const std::vector<double>& expected)
{
    return fitTest(observed, expected, [](double o, double e) { return (o - e) * (o - e) / e; });
}

FitTest gTest(const std::vector<std::uint64_t>& observed, const std::vector<double>& expected)
{
    const FitTest half = fitTest(observed, expected, [](double o, double e) { return o > 0 ? o * std::log(o / e) : 0.0; });
    if (std::isinf(half.statistic) || !half.tested)
        return half;
    FitTest test = half;
    test.statistic = 2.0 * half.statistic;
    test.pValue = chiSquareSurvival(test.statistic, test.degreesOfFreedom);
    return test;
}

double chiSquareSurvival(double statistic, int degreesOfFreedom)
{
    if (degreesOfFreedom < 1 || !(statistic > 0.0))
        return 1.0;
    if (std::isinf(statistic))
        return 0.0;
    try {
        const boost::math::chi_squared_distribution<double> dist(degreesOfFreedom);
        const double p = boost::math::cdf(boost::math::complement(dist, statistic));
        return std::isnan(p) ? 1.0 : std::clamp(p, 0.0, 1.0);
    } catch (const std::exception&) {
        return 1.0;  // unreachable with the checks above; an exception must not end the program
    }
}

std::vector<std::size_t> poolSmallBins(const std::vector<double>& expected, std::uint64_t total, double minExpected,
                                       std::vector<double>& mergedExpected)
{
    std::vector<std::size_t> binOf(expected.size(), 0);
    mergedExpected.clear();
    double open = 0.0;  // probability gathered in the bin being filled
    for (std::size_t i = 0; i < expected.size(); ++i) {
        binOf[i] = mergedExpected.size();
        open += expected[i];
        if (open * static_cast<double>(total) >= minExpected) {
            mergedExpected.push_back(open);
            open = 0.0;
        }
    }
    if (open > 0.0 || mergedExpected.empty()) {
        // A short tail joins the last full bin rather than standing alone under the minimum.
        if (mergedExpected.empty()) {
            mergedExpected.push_back(open);
        } else {
            mergedExpected.back() += open;
            for (std::size_t i = expected.size(); i-- > 0 && binOf[i] == mergedExpected.size();)
                binOf[i] = mergedExpected.size() - 1;
        }
    }
    return binOf;
}

KsTest ksUniformTest(std::vector<double> values)
{
    KsTest test;
    std::erase_if(values, [](double v) { return std::isnan(v); });
    if (values.empty())
        return test;
    test.tested = true;
    std::sort(values.begin(), values.end());
    const double n = static_cast<double>(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double x = std::clamp(values[i], 0.0, 1.0);
        test.statistic = std::max({test.statistic, (static_cast<double>(i) + 1.0) / n - x, x - static_cast<double>(i) / n});
    }
    const double root = std::sqrt(n);
    test.pValue = kolmogorovSurvival((root + 0.12 + 0.11 / root) * test.statistic);
    return test;
}

double probabilityAtLeastOnce(double q, double n)
{
    // 1 - (1-q)^n, written with log1p/expm1 so tiny q keeps its digits.
    return -std::expm1(n * std::log1p(-q));
}

double probabilityNever(double q, double n)
{
    // Computed directly rather than as 1 - probabilityAtLeastOnce, which loses the digits of a
    // small (1 - q)^n.
    if (q >= 1.0)
        return n > 0.0 ? 0.0 : 1.0;
    return std::exp(n * std::log1p(-q));
}

}  // namespace logitlab::engine
