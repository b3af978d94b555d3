// Throughput of the junk-risk Monte Carlo: alias-table draws of real token indices over
// V = 262,144 (Zipf), against a cumulative sum + binary search, and the whole workload
// (10^6 replies x 300 tokens, plain sampling) split into the experiment's work items on 1 and 2
// threads. Counters report draws per second; run with --benchmark_repetitions for medians.
#include "engine/experiments/decoder.h"
#include "engine/experiments/junk_risk.h"
#include "engine/models/synthetic_logits.h"
#include "engine/rng/alias_table.h"
#include "engine/rng/uniform_bits.h"
#include "engine/sampler/candidates.h"
#include "engine/sampler/softmax.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <ctime>
#include <thread>
#include <vector>

using namespace logitlab::engine;

namespace {

constexpr std::int64_t kVocabulary = 262'144;

const std::vector<double>& zipfProbabilities()
{
    static const std::vector<double> p = [] {
        const Eigen::ArrayXd probs = softmax(zipfLogits(kVocabulary, 1.0), 1.0);
        return std::vector<double>(probs.begin(), probs.end());
    }();
    return p;
}

template <class Engine>
void BM_AliasDraw(benchmark::State& state)
{
    const AliasTable table(zipfProbabilities());
    Engine engine(42);
    std::uint64_t sink = 0;
    for (auto _ : state) {
        for (int i = 0; i < 1024; ++i)
            sink += table.draw(nextU64(engine));
    }
    benchmark::DoNotOptimize(sink);
    state.counters["draws/s"] = benchmark::Counter(double(state.iterations()) * 1024, benchmark::Counter::kIsRate);
}
BENCHMARK_TEMPLATE(BM_AliasDraw, Mt19937_64);
BENCHMARK_TEMPLATE(BM_AliasDraw, Mulberry32);
BENCHMARK_TEMPLATE(BM_AliasDraw, Mt19937);

// The per-draw binary search the alias table replaces.
void BM_BinarySearchDraw(benchmark::State& state)
{
    const auto& p = zipfProbabilities();
    std::vector<double> cumulative(p.size());
    double sum = 0.0;
    for (std::size_t i = 0; i < p.size(); ++i)
        cumulative[i] = sum += p[i];
    Mt19937_64 engine(42);
    std::uint64_t sink = 0;
    for (auto _ : state) {
        for (int i = 0; i < 1024; ++i) {
            const double u = engine.nextDouble() * sum;
            sink += static_cast<std::uint64_t>(std::upper_bound(cumulative.begin(), cumulative.end(), u) -
                                               cumulative.begin());
        }
    }
    benchmark::DoNotOptimize(sink);
    state.counters["draws/s"] = benchmark::Counter(double(state.iterations()) * 1024, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_BinarySearchDraw);

void BM_AliasBuild(benchmark::State& state)
{
    for (auto _ : state)
        benchmark::DoNotOptimize(AliasTable(zipfProbabilities()));
}
BENCHMARK(BM_AliasBuild)->Unit(benchmark::kMillisecond);

// The workload: replies x 300 tokens, plain sampling (T = 1, no filter) over Zipf
// V = 262,144, junk = the least likely tokens holding 0.4% of the mass. Arguments: replies,
// threads. Threads pull work items from a shared counter, as the app's runner does.
void BM_JunkRiskWorkload(benchmark::State& state)
{
    JunkRiskParameters parameters;
    parameters.logits = zipfLogits(kVocabulary, 1.0);
    parameters.junk = {JunkDefinition::Kind::TailMass, 0.004, {}};
    parameters.decoders = {decoderFromSettings("plain", SamplerSettings{})};
    parameters.lengths = {300};
    parameters.replies = static_cast<std::uint64_t>(state.range(0));
    parameters.rng = "mt19937_64";
    const auto experiment = JunkRiskExperiment::prepare(parameters).value();
    const int threads = static_cast<int>(state.range(1));
    // Process CPU time (all threads): on a shared machine wall time also counts the waits for a
    // core, while draws per CPU-second is what the code itself achieves.
    const std::clock_t cpuStart = std::clock();
    for (auto _ : state) {
        std::atomic<std::size_t> next{0};
        std::vector<JunkRiskCounts> counts(threads, experiment.emptyCounts());
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; ++t)
            pool.emplace_back([&, t] {
                for (std::size_t i; (i = next.fetch_add(1)) < experiment.itemCount();)
                    experiment.runItem(i, counts[t]);
            });
        for (auto& thread : pool)
            thread.join();
        for (int t = 1; t < threads; ++t)
            counts[0].add(counts[t]);
        benchmark::DoNotOptimize(counts[0].draws);
    }
    const double draws = double(state.iterations()) * double(experiment.totalDraws());
    const double cpuSeconds = double(std::clock() - cpuStart) / CLOCKS_PER_SEC;
    state.counters["draws/s"] = benchmark::Counter(draws, benchmark::Counter::kIsRate);
    state.counters["draws/cpu-s"] = benchmark::Counter(cpuSeconds > 0 ? draws / cpuSeconds : 0.0);
}
BENCHMARK(BM_JunkRiskWorkload)
    ->Args({1'000'000, 1})
    ->Args({1'000'000, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
