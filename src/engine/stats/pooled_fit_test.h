// A chi-square goodness-of-fit test that is valid where it is shown: bins expecting fewer than
// five draws are pooled first (most probable first, so the tail is merged), and with fewer than
// two pooled bins there is no test at all, which the result says instead of a p-value. The
// Explorer's draws over a 262,144-token vocabulary would otherwise report p = 1e-161 for a
// correct sampler (thousands of bins expecting far less than one draw each). Past that, bins are
// pooled into at most kMaxPooledBins of about equal expected mass: over 17,000 bins of five
// draws a bias of 2% in half the mass moves the statistic by less than its own spread, over 100
// it is a thousand-sigma signal.
#pragma once

#include "engine/stats/statistics.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace logitlab::engine {

inline constexpr std::size_t kMaxPooledBins = 100;

struct PooledFit {
    std::optional<FitTest> test;  // none: fewer than two bins after pooling
    int bins = 0;                 // after pooling
    std::size_t originalBins = 0;

    // "chi-square p = 0.41 (17 bins after pooling)" or "no test: one outcome" / "... too few draws".
    std::string describe() const;
};

// `observed` and `expected` per outcome, most probable first; `expected` sums to 1.
PooledFit pooledChiSquare(const std::vector<std::uint64_t>& observed, const std::vector<double>& expected,
                          double minExpected = 5.0);

}  // namespace logitlab::engine
