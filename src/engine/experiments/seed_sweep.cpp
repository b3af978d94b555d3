#include "engine/experiments/seed_sweep.h"

#include "engine/core/number_format.h"
#include "engine/core/work_limits.h"
#include "engine/rng/rng_factory.h"
#include "engine/stats/sequence_hash.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace logitlab::engine {

namespace {

// Draws are produced in chunks so a billion draws per seed never needs a billion-entry buffer.
constexpr std::size_t kChunk = 1 << 16;

std::unique_ptr<Rng> generator(const std::string& name, std::uint64_t seed)
{
    return std::move(makeRng(name, seed)).value();  // the name was validated in prepare()
}

// Type-7 quantile (linear between order statistics) of sorted values.
double quantile(const std::vector<std::uint32_t>& sorted, double q)
{
    const double position = q * static_cast<double>(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(position));
    const std::size_t above = std::min(below + 1, sorted.size() - 1);
    const double fraction = position - static_cast<double>(below);
    return sorted[below] + fraction * (static_cast<double>(sorted[above]) - sorted[below]);
}

}  // namespace

SeedSweepExperiment::SeedSweepExperiment(SeedSweepParameters parameters) : m_parameters(std::move(parameters))
{
    m_binOf =
        poolSmallBins(m_parameters.source->expected(), m_parameters.drawsPerSeed, kMinExpectedPerBin, m_binExpected);
    m_gBinOf =
        poolSmallBins(m_parameters.source->expected(), m_parameters.drawsPerSeed, kMinExpectedPerGBin, m_gBinExpected);
}

std::uint64_t SeedSweepExperiment::memoryEstimate(std::uint64_t seeds, std::uint64_t outcomes)
{
    return seeds * (sizeof(SeedResult) + outcomes * sizeof(std::uint32_t));
}

Result<SeedSweepExperiment> SeedSweepExperiment::prepare(SeedSweepParameters p)
{
    if (!p.source || p.source->outcomeIds().empty())
        return Error{"source: no distribution to draw from"};
    for (double e : p.source->expected())
        if (!(e >= 0.0 && e <= 1.0))
            return Error{"source: a claimed probability is not in [0, 1]: " + formatDouble(e)};
    if (auto rng = makeRng(p.rng, 0); !rng)
        return Error{rng.error()};
    if (p.seeds.empty())
        return Error{"seeds: at least one seed is needed"};
    if (p.seeds.size() > kMaxSeeds)
        return Error{"seeds: " + std::to_string(p.seeds.size()) + " seeds is more than the limit of " +
                     std::to_string(kMaxSeeds)};
    if (p.drawsPerSeed == 0)
        return Error{"draws: must be at least 1 per seed"};
    if (p.drawsPerSeed > kMaxDrawsPerSeed)
        return Error{"draws: " + std::to_string(p.drawsPerSeed) + " per seed is more than the limit of " +
                     std::to_string(kMaxDrawsPerSeed)};
    const std::uint64_t bytes = memoryEstimate(p.seeds.size(), p.source->outcomeIds().size());
    if (bytes > kMaxMemoryBytes)
        return Error{"seeds: " + std::to_string(p.seeds.size()) + " seeds x " +
                     std::to_string(p.source->outcomeIds().size()) + " tokens would need about " +
                     formatDouble(std::ceil(double(bytes) / double(1 << 20))) + " MiB of counts, more than the " +
                     std::to_string(kMaxMemoryBytes >> 20) +
                     " MiB allowed; use fewer seeds or a chain that keeps fewer tokens"};
    // After the memory check: a sweep too large for memory is told so first.
    if (auto tooMuch =
            checkWork("draws", static_cast<double>(p.seeds.size()) * static_cast<double>(p.drawsPerSeed),
                      kMaxSeedSweepDraws, "use fewer seeds or fewer draws per seed (seeds x draws)", "draws"))
        return Error{*tooMuch};
    std::unordered_set<std::uint64_t> distinct(p.seeds.begin(), p.seeds.end());
    if (distinct.size() != p.seeds.size())
        return Error{"seeds: the list repeats a seed"};
    if (p.compared) {
        for (std::uint64_t s : *p.compared)
            if (!distinct.count(s))
                return Error{"compare: seed " + std::to_string(s) + " is not one of the swept seeds"};
    }
    return SeedSweepExperiment(std::move(p));
}

std::size_t SeedSweepExperiment::itemCount() const
{
    return (m_parameters.seeds.size() + kSeedsPerItem - 1) / kSeedsPerItem;
}

std::vector<SeedResult> SeedSweepExperiment::emptyResults() const
{
    return std::vector<SeedResult>(m_parameters.seeds.size());
}

SeedResult SeedSweepExperiment::runSeed(std::uint64_t seed) const
{
    const SweepSource& source = *m_parameters.source;
    const auto& ids = source.outcomeIds();
    SeedResult result;
    result.seed = seed;
    result.counts.assign(ids.size(), 0);
    auto rng = generator(m_parameters.rng, seed);
    SequenceHash hash;
    std::vector<std::uint32_t> chunk;
    chunk.reserve(kChunk);
    for (std::uint64_t done = 0; done < m_parameters.drawsPerSeed;) {
        const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, m_parameters.drawsPerSeed - done));
        chunk.clear();
        source.draw(*rng, n, chunk);
        for (std::uint32_t outcome : chunk) {
            ++result.counts[outcome];
            hash.add(ids[outcome]);
        }
        done += n;
    }
    result.hash = hash.value();
    result.mostDrawn = static_cast<std::uint32_t>(std::max_element(result.counts.begin(), result.counts.end()) -
                                                  result.counts.begin());

    std::vector<std::uint64_t> binned(m_binExpected.size(), 0);
    for (std::size_t i = 0; i < result.counts.size(); ++i)
        binned[m_binOf[i]] += result.counts[i];
    result.chiSquare = chiSquareTest(binned, m_binExpected);
    std::vector<std::uint64_t> gBinned(m_gBinExpected.size(), 0);
    for (std::size_t i = 0; i < result.counts.size(); ++i)
        gBinned[m_gBinOf[i]] += result.counts[i];
    result.gTest = engine::gTest(gBinned, m_gBinExpected);
    return result;
}

void SeedSweepExperiment::runItem(std::size_t index, std::vector<SeedResult>& results) const
{
    const std::size_t first = index * kSeedsPerItem;
    const std::size_t last = std::min(first + kSeedsPerItem, m_parameters.seeds.size());
    for (std::size_t i = first; i < last; ++i)
        results[i] = runSeed(m_parameters.seeds[i]);
}

SeedSweepSummary SeedSweepExperiment::summarise(const std::vector<SeedResult>& results) const
{
    const auto& ids = m_parameters.source->outcomeIds();
    const auto& expected = m_parameters.source->expected();
    const double totalDraws = static_cast<double>(m_parameters.drawsPerSeed) * static_cast<double>(results.size());

    SeedSweepSummary summary;
    summary.pooledBins = static_cast<int>(m_binExpected.size());
    summary.gTestBins = static_cast<int>(m_gBinExpected.size());
    if (ids.size() > 1 && m_binExpected.size() >= 2 && m_gBinExpected.size() < 2)
        summary.gNoTest = "no G-test: fewer than two bins expecting " + formatDouble(kMinExpectedPerGBin) +
                          " draws per seed; draw more";
    summary.pValueHistogram.assign(kHistogramBins, 0);
    std::vector<double> chiPValues, gPValues;
    if (ids.size() == 1)
        summary.noTest = "no test: one outcome";
    else if (m_binExpected.size() < 2)
        summary.noTest = "no test: one bin (every token expects fewer than " + formatDouble(kMinExpectedPerBin) +
                         " draws per seed; draw more)";
    for (const SeedResult& r : results) {
        if (!r.chiSquare.tested)
            continue;  // 0 degrees of freedom: a p-value of 1 that tests nothing
        chiPValues.push_back(r.chiSquare.pValue);
        if (r.gTest.tested)
            gPValues.push_back(r.gTest.pValue);
        const auto bin =
            std::min<std::size_t>(static_cast<std::size_t>(r.chiSquare.pValue * kHistogramBins), kHistogramBins - 1);
        ++summary.pValueHistogram[bin];
    }
    summary.chiSquareUniformity = ksUniformTest(chiPValues);
    summary.gTestUniformity = ksUniformTest(gPValues);

    std::vector<std::uint32_t> column(results.size());
    std::vector<std::uint64_t> pooled(ids.size(), 0);
    for (std::size_t t = 0; t < ids.size(); ++t) {
        TokenSpread spread;
        spread.id = ids[t];
        spread.expected = expected[t];
        spread.expectedPooled = expected[t] * totalDraws;
        for (std::size_t s = 0; s < results.size(); ++s) {
            column[s] = results[s].counts[t];
            spread.pooled += column[s];
            spread.timesMostDrawn += results[s].mostDrawn == t;
        }
        std::sort(column.begin(), column.end());
        spread.min = column.front();
        spread.q1 = quantile(column, 0.25);
        spread.median = quantile(column, 0.5);
        spread.q3 = quantile(column, 0.75);
        spread.max = column.back();
        pooled[t] = spread.pooled;
        summary.tokens.push_back(spread);
    }
    summary.pooledChiSquare = chiSquareTest(pooled, expected);

    if (m_parameters.compared) {
        summary.firstDifference = firstDifference((*m_parameters.compared)[0], (*m_parameters.compared)[1]);
        summary.comparedIdentical = !summary.firstDifference;
    }
    return summary;
}

std::uint64_t SeedSweepExperiment::replayHash(std::uint64_t seed) const { return runSeed(seed).hash; }

std::optional<std::uint64_t> SeedSweepExperiment::firstDifference(std::uint64_t a, std::uint64_t b) const
{
    auto rngA = generator(m_parameters.rng, a);
    auto rngB = generator(m_parameters.rng, b);
    std::vector<std::uint32_t> chunkA, chunkB;
    for (std::uint64_t done = 0; done < m_parameters.drawsPerSeed;) {
        const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, m_parameters.drawsPerSeed - done));
        chunkA.clear();
        chunkB.clear();
        m_parameters.source->draw(*rngA, n, chunkA);
        m_parameters.source->draw(*rngB, n, chunkB);
        const auto mismatch = std::mismatch(chunkA.begin(), chunkA.end(), chunkB.begin());
        if (mismatch.first != chunkA.end())
            return done + static_cast<std::uint64_t>(mismatch.first - chunkA.begin());
        done += n;
    }
    return std::nullopt;
}

}  // namespace logitlab::engine
