#include "engine/stats/pooled_fit_test.h"

#include <cstdio>
#include <numeric>

namespace logitlab::engine {

PooledFit pooledChiSquare(const std::vector<std::uint64_t>& observed, const std::vector<double>& expected,
                          double minExpected)
{
    PooledFit fit;
    fit.originalBins = expected.size();
    const std::uint64_t total = std::accumulate(observed.begin(), observed.end(), std::uint64_t{0});
    if (expected.empty() || total == 0)
        return fit;
    std::vector<double> merged;
    std::vector<std::size_t> binOf = poolSmallBins(expected, total, minExpected, merged);
    if (merged.size() > kMaxPooledBins) {
        // Consecutive bins (most probable first) close once they hold 1/kMaxPooledBins of the
        // mass: a token that large keeps its own bin, the tail shares a few.
        const double mass = std::accumulate(merged.begin(), merged.end(), 0.0);
        std::vector<std::size_t> regroup(merged.size());
        std::vector<double> coarse{0.0};
        for (std::size_t b = 0; b < merged.size(); ++b) {
            if (coarse.back() >= mass / kMaxPooledBins)
                coarse.push_back(0.0);
            coarse.back() += merged[b];
            regroup[b] = coarse.size() - 1;
        }
        for (std::size_t& bin : binOf)
            bin = regroup[bin];
        merged = std::move(coarse);
    }
    fit.bins = static_cast<int>(merged.size());
    if (merged.size() < 2)
        return fit;
    std::vector<std::uint64_t> binned(merged.size(), 0);
    for (std::size_t i = 0; i < observed.size() && i < binOf.size(); ++i)
        binned[binOf[i]] += observed[i];
    fit.test = chiSquareTest(binned, merged);
    return fit;
}

std::string PooledFit::describe() const
{
    if (!test) {
        if (originalBins <= 1)
            return "no test: one outcome";
        return "no test: too few draws for two bins expecting 5 or more";
    }
    char p[32];
    std::snprintf(p, sizeof p, "%.3g", test->pValue);
    std::string text = "chi-square p = " + std::string(p) + " (" + std::to_string(bins) + " bins";
    if (static_cast<std::size_t>(bins) < originalBins)
        text += " after pooling";
    return text + ")";
}

}  // namespace logitlab::engine
