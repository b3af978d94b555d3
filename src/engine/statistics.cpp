#include "statistics.h"

#include <boost/math/distributions/chi_squared.hpp>
#include <cassert>
#include <cmath>
#include <limits>

namespace logitlab::engine {

FitTest chiSquareTest(const std::vector<std::uint64_t>& observed, const std::vector<double>& expected)
{
    assert(observed.size() == expected.size());
    std::uint64_t total = 0;
    for (auto count : observed)
        total += count;

    FitTest test;
    int bins = 0;
    for (std::size_t i = 0; i < observed.size(); ++i) {
        const double e = expected[i] * static_cast<double>(total);
        if (e == 0.0) {
            if (observed[i] != 0) {
                test.statistic = std::numeric_limits<double>::infinity();
                test.pValue = 0.0;
            }
            continue;
        }
        const double d = static_cast<double>(observed[i]) - e;
        test.statistic += d * d / e;
        ++bins;
    }
    test.degreesOfFreedom = std::max(bins - 1, 0);
    if (std::isinf(test.statistic) || test.degreesOfFreedom == 0)
        return test;
    const boost::math::chi_squared_distribution<double> dist(test.degreesOfFreedom);
    test.pValue = boost::math::cdf(boost::math::complement(dist, test.statistic));
    return test;
}

double probabilityAtLeastOnce(double q, double n)
{
    // 1 - (1-q)^n, written with log1p/expm1 so tiny q keeps its digits.
    return -std::expm1(n * std::log1p(-q));
}

}  // namespace logitlab::engine
