// The seed-sweep experiment: draw the same number of tokens under many seeds and ask, per seed,
// whether the counts fit the probabilities the sampler claims (chi-square and G-test), and across
// seeds, whether those p-values are uniform as they must be for a correct sampler
// (Kolmogorov-Smirnov), how much the counts spread, and whether a seed replays bit for bit.
//
// Each seed uses its own generator, makeRng(rng, seed), so a seed's draws do not depend on the
// other seeds, the work split or the thread count. Work items are fixed blocks of seeds, and an
// item writes only its own seeds' slots.
#pragma once

#include "engine/core/result.h"
#include "engine/experiments/sweep_source.h"
#include "engine/stats/statistics.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace logitlab::engine {

struct SeedSweepParameters {
    std::shared_ptr<const SweepSource> source;
    std::string rng = "mulberry32";
    std::vector<std::uint64_t> seeds;  // distinct, at least one
    std::uint64_t drawsPerSeed = 1000;
    std::optional<std::array<std::uint64_t, 2>> compared;  // two seeds whose sequences are compared
};

struct SeedResult {
    std::uint64_t seed = 0;
    std::vector<std::uint32_t> counts;  // per outcome, in the source's order
    FitTest chiSquare;
    FitTest gTest;
    std::uint64_t hash = 0;       // SequenceHash of the drawn token ids
    std::uint32_t mostDrawn = 0;  // outcome index with the highest count (ties: more probable)
};

struct TokenSpread {
    std::int32_t id = 0;
    double expected = 0.0;                                // claimed probability
    std::uint64_t pooled = 0;                             // count over all seeds
    double expectedPooled = 0.0;                          // expected * seeds * draws
    double min = 0, q1 = 0, median = 0, q3 = 0, max = 0;  // of the per-seed counts
    std::uint64_t timesMostDrawn = 0;
};

struct SeedSweepSummary {
    std::vector<TokenSpread> tokens;
    FitTest pooledChiSquare;
    KsTest chiSquareUniformity;  // KS of the per-seed chi-square p-values against U(0,1)
    KsTest gTestUniformity;
    std::vector<std::uint64_t> pValueHistogram;    // chi-square p-values in kHistogramBins equal bins
    std::optional<std::uint64_t> firstDifference;  // of the compared seeds; none if identical
    bool comparedIdentical = false;
    int pooledBins = 0;  // bins the per-seed chi-square uses after pooling small ones
    int gTestBins = 0;   // and the per-seed G-test (kMinExpectedPerGBin)
    // Why the G-test is not valid when the chi-square is (fewer than two bins of 10): empty
    // otherwise. gTestUniformity is then untested.
    std::string gNoTest;
    // Why there is no test, e.g. "no test: one outcome" (a chain that leaves one token): every
    // draw is that token, the tests have 0 degrees of freedom, and chiSquareUniformity,
    // gTestUniformity and pooledChiSquare are untested (their p-values mean nothing). Empty when tested.
    std::string noTest;
    bool tested() const { return noTest.empty(); }
};

class SeedSweepExperiment {
public:
    static constexpr std::size_t kSeedsPerItem = 16;
    static constexpr std::size_t kHistogramBins = 10;  // labels of 20 bins do not fit a narrow chart
    static constexpr double kMinExpectedPerBin = 5.0;
    // The G-test's bins: pooled the same way until each expects at least 10 draws (with Williams'
    // correction its p-values are then uniform for a correct sampler; at 5 they are not).
    static constexpr double kMinExpectedPerGBin = 10.0;
    static constexpr std::uint64_t kMaxSeeds = 10'000'000;
    static constexpr std::uint64_t kMaxDrawsPerSeed = 1'000'000'000;
    static constexpr std::uint64_t kMaxMemoryBytes = std::uint64_t{4} << 30;

    // Validates everything and estimates memory before any work: errors name the parameter.
    static Result<SeedSweepExperiment> prepare(SeedSweepParameters parameters);

    // Bytes the results will need: per seed, one count per outcome plus the fixed part.
    static std::uint64_t memoryEstimate(std::uint64_t seeds, std::uint64_t outcomes);

    const SeedSweepParameters& parameters() const { return m_parameters; }
    std::size_t itemCount() const;
    std::vector<SeedResult> emptyResults() const;
    // Pure: fills results[i] for the seeds of item `index`. Safe to call concurrently for
    // different items.
    void runItem(std::size_t index, std::vector<SeedResult>& results) const;
    SeedSweepSummary summarise(const std::vector<SeedResult>& results) const;

    // Draws the seed again and returns its sequence hash: equal to the stored one if it
    // replayed bit for bit.
    std::uint64_t replayHash(std::uint64_t seed) const;
    // First index where the two seeds' sequences differ, or none if all draws agree.
    std::optional<std::uint64_t> firstDifference(std::uint64_t a, std::uint64_t b) const;

private:
    explicit SeedSweepExperiment(SeedSweepParameters parameters);
    SeedResult runSeed(std::uint64_t seed) const;

    SeedSweepParameters m_parameters;
    std::vector<std::size_t> m_binOf;   // outcome -> pooled bin
    std::vector<double> m_binExpected;  // pooled bins' probabilities
    std::vector<std::size_t> m_gBinOf;  // the same for the G-test's bins
    std::vector<double> m_gBinExpected;
};

}  // namespace logitlab::engine
