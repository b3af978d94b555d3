// Issue 6's speed targets, on the same runner the app uses (2 threads):
//   10^4 seeds x 10^4 draws over the lesson's exercise chain (T = 1, top-p 0.9): <= 2 s;
//   10^3 seeds x 10^4 draws over V = 128,256 normal(0, 2.5) logits at T = 0.7, top-p 0.95: <= 5 s.
// Each iteration is one whole sweep (work items, per-seed tests, summary).
#include "app/run/experiment_runner.h"
#include "engine/experiments/seed_sweep.h"
#include "engine/models/synthetic_logits.h"
#include "engine/sampler/candidates.h"
#include "engine/sampler/lesson_examples.h"

#include <benchmark/benchmark.h>

#include <numeric>

using namespace logitlab;
using namespace logitlab::engine;

namespace {

void sweep(benchmark::State& state, const Eigen::ArrayXd& logits, SamplerSettings settings, std::uint64_t seeds,
           std::string rng)
{
    SeedSweepParameters p;
    p.source = std::make_shared<CandidateSource>(candidates(logits, settings), "bench");
    p.rng = std::move(rng);
    p.seeds.resize(seeds);
    std::iota(p.seeds.begin(), p.seeds.end(), 1);
    p.drawsPerSeed = 10000;
    const auto experiment = std::move(SeedSweepExperiment::prepare(p)).value();
    const int threads = static_cast<int>(state.range(0));
    for (auto _ : state) {
        auto results = experiment.emptyResults();
        app::runWorkItems(experiment.itemCount(), threads,
                          [&](int, std::size_t item) { experiment.runItem(item, results); }, {});
        benchmark::DoNotOptimize(experiment.summarise(results));
    }
    state.counters["draws/s"] = benchmark::Counter(
        static_cast<double>(seeds) * 1e4 * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    state.counters["outcomes"] = static_cast<double>(p.source->outcomeIds().size());
}

void BM_ExerciseTenThousandSeeds(benchmark::State& state)
{
    sweep(state, lessonExercise().logits, {1.0, std::nullopt, 0.9}, 10000, "mulberry32");
}

void BM_Vocabulary128kThousandSeeds(benchmark::State& state)
{
    sweep(state, normalLogits(128256, 2.5, 12345), {0.7, std::nullopt, 0.95}, 1000, "mt19937_64");
}

}  // namespace

BENCHMARK(BM_ExerciseTenThousandSeeds)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kSecond)
    ->UseRealTime()
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);
BENCHMARK(BM_Vocabulary128kThousandSeeds)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kSecond)
    ->UseRealTime()
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);

BENCHMARK_MAIN();
