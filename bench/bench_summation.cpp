// Issue 12's speed target for the summation-order lab, on the runner the app uses:
//   10^4 shuffles of 10^5 float32 terms summed in float32, with the exact reference: <= 3 s on
//   2 cores. One iteration is the whole experiment: drawing the terms, their exact sum (once:
//   it does not depend on the order), every shuffle as a work item, and the summary.
#include "app/run/experiment_runner.h"
#include "engine/experiments/summation_order.h"

#include <benchmark/benchmark.h>

using namespace logitlab;
using namespace logitlab::engine;

namespace {

void BM_TenThousandShufflesOf1e5Float32(benchmark::State& state)
{
    SummationParameters p;
    p.n = 100000;
    p.shuffles = 10000;
    p.methods = {SumMethod::Exact};
    p.storage = FloatFormat::Float32;
    p.accumulator = FloatFormat::Float32;
    const int threads = static_cast<int>(state.range(0));
    std::int64_t distinct = 0;
    for (auto _ : state) {
        const auto experiment = std::move(SummationExperiment::prepare(p)).value();
        std::vector<SummationExperiment::Scratch> scratch(static_cast<std::size_t>(threads));
        std::vector<double> results(experiment.itemCount());
        app::runWorkItems(experiment.itemCount(), threads,
                          [&](int worker, std::size_t item) {
                              results[item] = experiment.runItem(item, scratch[static_cast<std::size_t>(worker)]);
                          },
                          {});
        distinct = experiment.summarize(results).distinctShuffles;
    }
    state.counters["terms/s"] =
        benchmark::Counter(1e9 * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    state.counters["distinct"] = static_cast<double>(distinct);
}

// The exact sum alone (the superaccumulator), per 10^5 terms.
void BM_ExactSumOf1e5(benchmark::State& state)
{
    const auto terms = generateTerms(TermDistribution::Normal, 100000, 1.0, 1);
    for (auto _ : state)
        benchmark::DoNotOptimize(sumInOrder(SumMethod::Exact, terms, FloatFormat::Float32, {}));
}

}  // namespace

BENCHMARK(BM_TenThousandShufflesOf1e5Float32)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kSecond)
    ->UseRealTime()
    ->Iterations(1)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);
BENCHMARK(BM_ExactSumOf1e5)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
