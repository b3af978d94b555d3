// The summation-order experiment: N terms (drawn or listed) stored in one format and summed in
// another, in every chosen order and in K seeded random orders, each judged in ULPs against the
// exact sum rounded correctly into the accumulator's format; and how far the random orders
// spread as N grows from 10^2 to 10^7. Work items are pure functions of their index (one
// method, or one shuffle with its own seed), so results are the same for any thread count;
// prepare() does the once-per-term-set work (drawing, rounding, the exact sum).
#pragma once

#include "engine/core/result.h"
#include "engine/experiments/summation_methods.h"
#include "engine/experiments/summation_terms.h"
#include "engine/kernels/float_formats.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace logitlab::engine {

struct SummationParameters {
    TermDistribution distribution = TermDistribution::Normal;
    std::int64_t n = 10000;      // generated terms (not for List)
    double scale = 1.0;          // multiplies generated terms
    std::vector<double> listed;  // List: the terms
    FloatFormat storage = FloatFormat::Float32;
    FloatFormat accumulator = FloatFormat::Float32;
    std::vector<SumMethod> methods = allSumMethods();
    std::int64_t shuffles = 1000;
    std::uint64_t seed = 42;
    SumShape shape;
    // Spread against N: 0 for none, else a power of ten in 100..10^7, the largest N. Each N gets
    // clamp(spreadTerms / N, 2, kMaxSpreadShuffles) shuffles, so the whole chart costs about
    // spreadTerms additions per N (a few seconds at the default).
    std::int64_t spreadMaxN = 0;
    std::int64_t spreadTerms = 50'000'000;

    static constexpr std::int64_t kMaxTerms = 10'000'000;
    static constexpr std::int64_t kMaxShuffles = 1'000'000;
    static constexpr std::int64_t kMaxSpreadShuffles = 1000;
    static constexpr std::int64_t kMaxSpreadTerms = 1'000'000'000;
    static constexpr int kMaxSplit = 65536;
    static constexpr int kMaxLanes = 256;
    static constexpr int kMaxThreads = 1024;
};

struct SumMethodRow {
    std::string method;  // "pairwise", or "shuffle min" / "shuffle max" over the K orders
    std::string description;
    double value = 0.0;  // in the accumulator's format; may be infinite after overflow
    std::string bits;
    bool finite = true;
    std::int64_t ulps = 0;  // value's distance from the exact sum in the accumulator's ULPs (finite only)
    double error = 0.0;     // value - exact (the exact sum rounded to float64), finite only
};

struct ShuffleRow {
    std::int64_t index = 0;
    std::uint64_t seed = 0;
    double value = 0.0;
    std::string bits;
    bool finite = true;
    std::int64_t ulps = 0;
};

// Shuffles whose error lies in [low, high] ULPs.
struct UlpBin {
    std::int64_t low = 0;
    std::int64_t high = 0;
    std::int64_t count = 0;
};

struct SpreadRow {
    std::int64_t n = 0;
    std::int64_t shuffles = 0;
    std::int64_t distinct = 0;  // distinct results over the shuffles
    std::int64_t minUlps = 0;   // finite results only
    std::int64_t maxUlps = 0;
    std::int64_t spreadUlps = 0;  // max - min (saturated)
    double exact = 0.0;           // the exact sum in float64
    double relativeSpread = 0.0;  // (max - min) / |exact|; 0 when exact is 0
};

struct SummationSummary {
    double exact = 0.0;         // exact sum rounded to the accumulator's format
    double exactFloat64 = 0.0;  // and to float64
    std::string exactBits;
    std::int64_t terms = 0;
    std::int64_t distinctShuffles = 0;  // distinct results over the K shuffles
    std::int64_t distinctAll = 0;       // over the shuffles and every method
    std::vector<SumMethodRow> methods;
    std::vector<ShuffleRow> shuffles;
    std::vector<UlpBin> histogram;       // finite shuffles only ...
    std::int64_t nonFiniteShuffles = 0;  // ... these (+-inf, NaN, or any when the exact sum overflows) are outside it
    std::vector<SpreadRow> spread;
};

class SummationExperiment {
public:
    // Draws or takes the terms, rounds them into the storage format (a term that overflows it
    // is an error naming the term), and sums each term set exactly once. `cancelled` is polled
    // between term sets.
    static Result<SummationExperiment> prepare(SummationParameters parameters,
                                               const std::function<bool()>& cancelled = {});

    // Scratch space of one worker, reused between its items.
    struct Scratch {
        std::vector<float> narrow;
        std::vector<double> wide;
    };

    // Items: the methods in order, then the K shuffles, then each spread N's shuffles.
    std::size_t itemCount() const { return m_itemCount; }
    double runItem(std::size_t item, Scratch& scratch) const;
    // `results` holds runItem(i) at index i.
    SummationSummary summarize(const std::vector<double>& results) const;

    const SummationParameters& parameters() const { return m_parameters; }
    const std::vector<double>& terms() const { return m_sets.front().wide; }
    // Histogram bins at most.
    static constexpr std::int64_t kMaxBins = 41;

    struct TermSet {
        std::int64_t n = 0;
        std::vector<double> wide;   // the terms in storage format, as doubles (main set, or float64 storage)
        std::vector<float> narrow;  // the same as floats, for storage of 32 bits or fewer
        double exact = 0.0;         // rounded to the accumulator's format
        double exactFloat64 = 0.0;
        std::uint64_t shuffleSeed = 0;
        std::int64_t shuffles = 0;
        std::size_t firstItem = 0;  // its first shuffle's item
    };

private:
    double shuffle(const TermSet& set, std::int64_t k, Scratch& scratch) const;
    std::uint64_t shuffleSeedOf(const TermSet& set, std::int64_t k) const;

    SummationParameters m_parameters;
    std::vector<TermSet> m_sets;  // the experiment's terms first, then the spread's N
    std::size_t m_itemCount = 0;
};

// The shuffles each spread N gets.
std::int64_t spreadShuffles(std::int64_t n, std::int64_t spreadTerms);

}  // namespace logitlab::engine
