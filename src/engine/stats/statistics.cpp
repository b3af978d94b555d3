#include "engine/stats/statistics.h"

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
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

// P(D_n+ >= d), Smirnov's one-sided statistic, by the Birnbaum-Tingey sum
// d sum_{j=0}^{floor(n(1-d))} C(n, j) (d + j/n)^(j-1) (1 - d - j/n)^(n-j), each term in logs.
double smirnovSurvival(int n, double d)
{
    if (d <= 0.0)
        return 1.0;
    if (d >= 1.0)
        return 0.0;
    const double nn = static_cast<double>(n);
    const int last = static_cast<int>(std::floor(nn * (1.0 - d)));
    double sum = 0.0;
    for (int j = 0; j <= last; ++j) {
        const double jn = static_cast<double>(j) / nn;
        const double rest = 1.0 - d - jn;
        if (rest <= 0.0 && j < n)
            continue;
        const double logTerm = std::lgamma(nn + 1.0) - std::lgamma(j + 1.0) - std::lgamma(nn - j + 1.0) +
                               (j - 1) * std::log(d + jn) + (n - j > 0 ? (n - j) * std::log(rest) : 0.0);
        sum += std::exp(logTerm);
    }
    return std::clamp(d * sum, 0.0, 1.0);
}

// P(D_n < d) by Durbin's matrix (Marsaglia, Tsang and Wang 2003): k = floor(n d) + 1,
// h = k - n d, the (2k - 1)-square matrix H raised to the n-th power, its middle element times
// n! / n^n. Powers of ten are carried apart so nothing overflows.
double durbinCdf(int n, double d)
{
    const int k = static_cast<int>(std::floor(static_cast<double>(n) * d)) + 1;
    const int m = 2 * k - 1;
    const double h = static_cast<double>(k) - static_cast<double>(n) * d;
    using Matrix = std::vector<double>;
    const auto at = [m](Matrix& a, int i, int j) -> double& { return a[static_cast<std::size_t>(i * m + j)]; };
    Matrix hm(static_cast<std::size_t>(m * m), 0.0);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j)
            at(hm, i, j) = i - j + 1 >= 0 ? 1.0 : 0.0;
    for (int i = 0; i < m; ++i) {
        at(hm, i, 0) -= std::pow(h, i + 1);
        at(hm, m - 1, i) -= std::pow(h, m - i);
    }
    at(hm, m - 1, 0) += 2.0 * h - 1.0 > 0.0 ? std::pow(2.0 * h - 1.0, m) : 0.0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j)
            if (i - j + 1 > 0)
                for (int g = 1; g <= i - j + 1; ++g)
                    at(hm, i, j) /= g;
    const auto multiply = [m, &at](Matrix& a, Matrix& b) {
        Matrix c(static_cast<std::size_t>(m * m), 0.0);
        for (int i = 0; i < m; ++i)
            for (int l = 0; l < m; ++l) {
                const double ail = at(a, i, l);
                if (ail == 0.0)
                    continue;
                for (int j = 0; j < m; ++j)
                    at(c, i, j) += ail * at(b, l, j);
            }
        return c;
    };
    // Square and multiply, the exponent of ten kept in `scale`.
    Matrix result;
    int resultScale = 0;
    Matrix power = hm;
    int powerScale = 0;
    const int centre = k - 1;
    const auto rescale = [&](Matrix& a, int& scale) {
        if (at(a, centre, centre) > 1e140) {
            for (double& v : a)
                v *= 1e-140;
            scale += 140;
        }
    };
    for (int e = n; e > 0; e >>= 1) {
        if (e & 1) {
            if (result.empty()) {
                result = power;
                resultScale = powerScale;
            } else {
                result = multiply(result, power);
                resultScale += powerScale;
                rescale(result, resultScale);
            }
        }
        if (e > 1) {
            power = multiply(power, power);
            powerScale *= 2;
            rescale(power, powerScale);
        }
    }
    double s = at(result, centre, centre);
    int scale = resultScale;
    for (int i = 1; i <= n; ++i) {
        s = s * static_cast<double>(i) / static_cast<double>(n);
        if (s < 1e-140) {
            s *= 1e140;
            scale -= 140;
        }
    }
    return std::clamp(s * std::pow(10.0, scale), 0.0, 1.0);
}

double stephens(int n, double d)
{
    const double root = std::sqrt(static_cast<double>(n));
    return kolmogorovSurvival((root + 0.12 + 0.11 / root) * d);
}

}  // namespace

double kolmogorovSurvivalExact(int n, double d, std::string* method)
{
    const auto say = [method](const char* text) {
        if (method)
            *method = text;
    };
    say("exact");
    if (n <= 0 || std::isnan(d))
        return 1.0;
    if (d >= 1.0)
        return 0.0;
    const double nn = static_cast<double>(n);
    const double t = nn * d;
    if (t <= 0.5)
        return 1.0;
    if (t <= 1.0) {
        // P(D_n < d) = n! / n^n (2t - 1)^n for 1/2n <= d <= 1/n.
        const double logCdf = std::lgamma(nn + 1.0) - nn * std::log(nn) + nn * std::log(2.0 * t - 1.0);
        return std::clamp(1.0 - std::exp(logCdf), 0.0, 1.0);
    }
    if (t >= nn - 1.0)
        return std::clamp(2.0 * std::pow(1.0 - d, nn), 0.0, 1.0);
    const double nd2 = t * d;
    const bool sidesApart = d >= 0.5 || nd2 >= (n <= 140 ? 4.0 : 2.2);
    if (sidesApart) {
        // Exact at d >= 0.5; elsewhere high by the chance that both sides reach d (2.7e-7 of p
        // at n = 1000, d = 0.05), as scipy's kstwo.sf computes it here.
        say(d >= 0.5 ? "exact" : "twice Smirnov's one-sided probability (the far tail; as scipy computes it)");
        if (n > 140 && nd2 >= 370.0)
            return 0.0;
        return std::clamp(2.0 * smirnovSurvival(n, d), 0.0, 1.0);
    }
    if (std::floor(t) + 1.0 > 150.0) {
        say("Stephens' approximation (n d > 150: too many values for the exact matrix)");
        return stephens(n, d);
    }
    return std::clamp(1.0 - durbinCdf(n, d), 0.0, 1.0);
}

FitTest chiSquareTest(const std::vector<std::uint64_t>& observed, const std::vector<double>& expected)
{
    return fitTest(observed, expected, [](double o, double e) { return (o - e) * (o - e) / e; });
}

FitTest gTest(const std::vector<std::uint64_t>& observed, const std::vector<double>& expected)
{
    const FitTest half =
        fitTest(observed, expected, [](double o, double e) { return o > 0 ? o * std::log(o / e) : 0.0; });
    if (std::isinf(half.statistic) || !half.tested)
        return half;
    FitTest test = half;
    test.statistic = 2.0 * half.statistic;
    std::uint64_t total = 0;
    for (auto count : observed)
        total += count;
    double inverseSum = 0.0;
    for (double e : expected)
        if (e > 0.0)
            inverseSum += 1.0 / e;
    test.correction = 1.0 + (inverseSum - 1.0) / (6.0 * static_cast<double>(total) * test.degreesOfFreedom);
    test.pValue = chiSquareSurvival(test.statistic / test.correction, test.degreesOfFreedom);
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
        test.statistic =
            std::max({test.statistic, (static_cast<double>(i) + 1.0) / n - x, x - static_cast<double>(i) / n});
    }
    test.pValue = kolmogorovSurvivalExact(static_cast<int>(values.size()), test.statistic, &test.method);
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
