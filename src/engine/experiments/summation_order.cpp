#include "engine/experiments/summation_order.h"

#include "engine/core/input_limits.h"
#include "engine/core/number_format.h"
#include "engine/rng/seed_split.h"
#include "engine/stats/exact_sum.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace logitlab::engine {

namespace {

// The terms of N come from their own stream, so the spread's N = 10^4 set is the experiment's
// own set when N = 10^4, and its shuffles are the same shuffles.
std::uint64_t termSeed(std::uint64_t seed, std::int64_t n)
{
    return streamSeed(seed ^ 0x7465726d73ull, static_cast<std::uint64_t>(n));  // "terms"
}

bool isPowerOfTwo(int x) { return x > 0 && (x & (x - 1)) == 0; }

std::optional<std::string> checkParameters(const SummationParameters& p)
{
    using P = SummationParameters;
    if (p.distribution == TermDistribution::List) {
        if (p.listed.empty())
            return "terms: the list is empty";
        if (p.listed.size() > kMaxValues)
            return "terms: more than " + groupedNumber(kMaxValues) + " terms";
    } else if (p.n < 1 || p.n > P::kMaxTerms) {
        return "n: must be 1.." + groupedNumber(static_cast<std::size_t>(P::kMaxTerms));
    }
    if (!std::isfinite(p.scale) || p.scale <= 0.0)
        return "scale: must be a finite number above 0";
    if (p.shuffles < 0 || p.shuffles > P::kMaxShuffles)
        return "shuffles: must be 0.." + groupedNumber(static_cast<std::size_t>(P::kMaxShuffles));
    if (p.shape.split < 1 || p.shape.split > P::kMaxSplit)
        return "split: must be 1.." + std::to_string(P::kMaxSplit);
    if (!isPowerOfTwo(p.shape.lanes) || p.shape.lanes > P::kMaxLanes)
        return "lanes: must be a power of two, 1.." + std::to_string(P::kMaxLanes);
    if (p.shape.threads < 1 || p.shape.threads > P::kMaxThreads)
        return "threads: must be 1.." + std::to_string(P::kMaxThreads);
    if (p.spreadMaxN != 0) {
        std::int64_t n = 100;
        while (n < p.spreadMaxN)
            n *= 10;
        if (n != p.spreadMaxN || n > P::kMaxTerms)
            return "spread.max_n: must be 0 or a power of ten in 100..10,000,000";
    }
    if (p.spreadTerms < 1 || p.spreadTerms > P::kMaxSpreadTerms)
        return "spread.terms: must be 1.." + groupedNumber(static_cast<std::size_t>(P::kMaxSpreadTerms));
    return std::nullopt;
}

// The terms rounded into storage; the first that overflows it is an error.
Result<std::vector<double>> stored(std::vector<double> values, FloatFormat storage)
{
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double x = roundTo(storage, values[i]);
        if (!std::isfinite(x))
            return Error{"terms: term " + groupedNumber(i + 1) + " (" + formatDouble(values[i]) + ") overflows " +
                         std::string(floatFormatName(storage)) + " (largest finite " +
                         formatDouble(maxFinite(storage)) + ")"};
        values[i] = x;
    }
    return values;
}

// Saturates instead of overflowing: two float64 values of opposite signs near the top of the
// range lie more than 2^63 positions apart.
std::int64_t ulpsBetween(FloatFormat format, double value, double exact)
{
    std::int64_t out = 0;
    if (__builtin_sub_overflow(ordinalOf(format, value), ordinalOf(format, exact), &out))
        return value > exact ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
    return out;
}

}  // namespace

std::int64_t spreadShuffles(std::int64_t n, std::int64_t spreadTerms)
{
    return std::clamp<std::int64_t>(spreadTerms / std::max<std::int64_t>(n, 1), 2,
                                    SummationParameters::kMaxSpreadShuffles);
}

Result<SummationExperiment> SummationExperiment::prepare(SummationParameters parameters,
                                                         const std::function<bool()>& cancelled)
{
    if (auto problem = checkParameters(parameters))
        return Error{*problem};
    SummationExperiment e;
    const FloatFormat storage = parameters.storage;
    const bool narrow = storageBits(storage) <= 32;
    const auto makeSet = [&](std::vector<double> values, std::uint64_t seedBase, std::int64_t shuffles,
                             bool keepWide) -> Result<TermSet> {
        auto rounded = stored(std::move(values), storage);
        if (!rounded)
            return Error{rounded.error()};
        TermSet set;
        set.n = static_cast<std::int64_t>(rounded->size());
        ExactSum exact;
        exact.add(rounded.value());
        set.exact = exact.rounded(parameters.accumulator);
        set.exactFloat64 = exact.rounded(FloatFormat::Float64);
        set.shuffleSeed = streamSeed(seedBase, 1);
        set.shuffles = shuffles;
        if (narrow)
            set.narrow.assign(rounded->begin(), rounded->end());
        if (keepWide || !narrow)
            set.wide = std::move(rounded).value();
        return set;
    };

    const bool listed = parameters.distribution == TermDistribution::List;
    const std::int64_t n = listed ? static_cast<std::int64_t>(parameters.listed.size()) : parameters.n;
    const std::uint64_t mainSeed = listed ? parameters.seed : termSeed(parameters.seed, n);
    auto main = makeSet(
        listed ? parameters.listed
               : generateTerms(parameters.distribution, static_cast<std::size_t>(n), parameters.scale, mainSeed),
        mainSeed, parameters.shuffles, true);
    if (!main)
        return Error{main.error()};
    e.m_sets.push_back(std::move(main).value());
    // A list cannot be drawn at other sizes: its spread is not defined.
    if (!listed && parameters.spreadMaxN > 0) {
        for (std::int64_t size = 100; size <= parameters.spreadMaxN; size *= 10) {
            if (cancelled && cancelled())
                break;
            const std::uint64_t seed = termSeed(parameters.seed, size);
            auto set =
                makeSet(generateTerms(parameters.distribution, static_cast<std::size_t>(size), parameters.scale, seed),
                        seed, spreadShuffles(size, parameters.spreadTerms), false);
            if (!set)
                return Error{"spread at N = " + groupedNumber(static_cast<std::size_t>(size)) + ": " + set.error()};
            e.m_sets.push_back(std::move(set).value());
        }
    }
    std::size_t item = parameters.methods.size();
    for (TermSet& set : e.m_sets) {
        set.firstItem = item;
        item += static_cast<std::size_t>(set.shuffles);
    }
    e.m_itemCount = item;
    e.m_parameters = std::move(parameters);
    return e;
}

std::uint64_t SummationExperiment::shuffleSeedOf(const TermSet& set, std::int64_t k) const
{
    return streamSeed(set.shuffleSeed, static_cast<std::uint64_t>(k));
}

double SummationExperiment::shuffle(const TermSet& set, std::int64_t k, Scratch& scratch) const
{
    const std::uint64_t seed = shuffleSeedOf(set, k);
    if (!set.narrow.empty())
        return shuffledSum(std::span<const float>(set.narrow), m_parameters.accumulator, seed, scratch.narrow);
    return shuffledSum(std::span<const double>(set.wide), m_parameters.accumulator, seed, scratch.wide);
}

double SummationExperiment::runItem(std::size_t item, Scratch& scratch) const
{
    const auto& methods = m_parameters.methods;
    if (item < methods.size())
        return sumInOrder(methods[item], m_sets.front().wide, m_parameters.accumulator, m_parameters.shape);
    // The last set whose first item is at or before `item`.
    for (std::size_t s = m_sets.size(); s-- > 0;)
        if (m_sets[s].firstItem <= item)
            return shuffle(m_sets[s], static_cast<std::int64_t>(item - m_sets[s].firstItem), scratch);
    return 0.0;
}

SummationSummary SummationExperiment::summarize(const std::vector<double>& results) const
{
    const SummationParameters& p = m_parameters;
    const FloatFormat acc = p.accumulator;
    const TermSet& main = m_sets.front();
    SummationSummary out;
    out.exact = main.exact;
    out.exactFloat64 = main.exactFloat64;
    out.exactBits = hexBits(acc, main.exact);
    out.terms = main.n;
    const bool exactFinite = std::isfinite(main.exact);

    const auto methodRow = [&](std::string name, std::string description, double value) {
        SumMethodRow row{std::move(name), std::move(description), value, hexBits(acc, value), std::isfinite(value)};
        if (row.finite && exactFinite) {
            row.ulps = ulpsBetween(acc, value, main.exact);
            row.error = value - main.exactFloat64;
        } else {
            row.finite = false;
        }
        return row;
    };
    std::set<std::uint64_t> all;
    for (std::size_t m = 0; m < p.methods.size(); ++m) {
        const double value = results[m];
        out.methods.push_back(methodRow(std::string(sumMethodName(p.methods[m])),
                                        describeSumMethod(p.methods[m], p.shape.split, p.shape.lanes, p.shape.threads),
                                        value));
        all.insert(bitsOf(acc, value));
    }

    // The K shuffles of the experiment's own terms.
    std::set<std::uint64_t> distinct;
    std::int64_t low = 0, high = 0;
    bool anyFinite = false;
    for (std::int64_t k = 0; k < main.shuffles; ++k) {
        const double value = results[main.firstItem + static_cast<std::size_t>(k)];
        ShuffleRow row{k, shuffleSeedOf(main, k), value, hexBits(acc, value), std::isfinite(value) && exactFinite};
        if (row.finite) {
            row.ulps = ulpsBetween(acc, value, main.exact);
            low = anyFinite ? std::min(low, row.ulps) : row.ulps;
            high = anyFinite ? std::max(high, row.ulps) : row.ulps;
            anyFinite = true;
        }
        distinct.insert(bitsOf(acc, value));
        all.insert(bitsOf(acc, value));
        out.shuffles.push_back(std::move(row));
    }
    out.distinctShuffles = static_cast<std::int64_t>(distinct.size());
    out.distinctAll = static_cast<std::int64_t>(all.size());
    // The best and worst random order, as two more rows of the methods' chart: by value, so an
    // order that overflowed to -inf or +inf is the lowest or highest (NaN has no place).
    {
        const ShuffleRow* lo = nullptr;
        const ShuffleRow* hi = nullptr;
        for (const ShuffleRow& r : out.shuffles) {
            if (std::isnan(r.value))
                continue;
            if (!lo || r.value < lo->value)
                lo = &r;
            if (!hi || r.value > hi->value)
                hi = &r;
        }
        if (lo && (anyFinite || !std::isfinite(lo->value) || !std::isfinite(hi->value))) {
            out.methods.push_back(
                methodRow("shuffle min", "the lowest of the random orders (shuffle " + std::to_string(lo->index) + ")",
                          lo->value));
            out.methods.push_back(
                methodRow("shuffle max", "the highest of the random orders (shuffle " + std::to_string(hi->index) + ")",
                          hi->value));
        }
    }
    out.nonFiniteShuffles = static_cast<std::int64_t>(
        std::count_if(out.shuffles.begin(), out.shuffles.end(), [](const ShuffleRow& r) { return !r.finite; }));
    if (anyFinite) {
        std::vector<ShuffleRow> finite;
        std::copy_if(out.shuffles.begin(), out.shuffles.end(), std::back_inserter(finite),
                     [](const ShuffleRow& r) { return r.finite; });
        // One bin per ULP when the range is narrow, else kMaxBins equal bins. Offsets from
        // `low` are unsigned: the range can exceed 2^63 ULPs in float64.
        const auto span = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low);
        const std::uint64_t width = span / static_cast<std::uint64_t>(kMaxBins) + 1;
        for (std::uint64_t offset = 0; offset <= span; offset += width) {
            const auto at = static_cast<std::int64_t>(static_cast<std::uint64_t>(low) + offset);
            const std::uint64_t last = std::min(span, offset + (width - 1));
            out.histogram.push_back({at, static_cast<std::int64_t>(static_cast<std::uint64_t>(low) + last), 0});
            if (span - offset < width)
                break;
        }
        for (const ShuffleRow& r : finite)
            ++out.histogram[static_cast<std::size_t>(
                                (static_cast<std::uint64_t>(r.ulps) - static_cast<std::uint64_t>(low)) / width)]
                  .count;
    }

    for (std::size_t s = 1; s < m_sets.size(); ++s) {
        const TermSet& set = m_sets[s];
        SpreadRow row;
        row.n = set.n;
        row.shuffles = set.shuffles;
        row.exact = set.exactFloat64;
        std::set<std::uint64_t> values;
        double minValue = 0.0, maxValue = 0.0;
        bool first = true;
        for (std::int64_t k = 0; k < set.shuffles; ++k) {
            const double value = results[set.firstItem + static_cast<std::size_t>(k)];
            values.insert(bitsOf(acc, value));
            if (!std::isfinite(value) || !std::isfinite(set.exact))
                continue;
            const std::int64_t u = ulpsBetween(acc, value, set.exact);
            row.minUlps = first ? u : std::min(row.minUlps, u);
            row.maxUlps = first ? u : std::max(row.maxUlps, u);
            minValue = first ? value : std::min(minValue, value);
            maxValue = first ? value : std::max(maxValue, value);
            first = false;
        }
        row.distinct = static_cast<std::int64_t>(values.size());
        if (__builtin_sub_overflow(row.maxUlps, row.minUlps, &row.spreadUlps))
            row.spreadUlps = std::numeric_limits<std::int64_t>::max();
        row.relativeSpread = set.exactFloat64 != 0.0 ? (maxValue - minValue) / std::fabs(set.exactFloat64) : 0.0;
        out.spread.push_back(row);
    }
    return out;
}

}  // namespace logitlab::engine
