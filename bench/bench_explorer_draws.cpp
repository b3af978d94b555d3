// The Explorer's Draw button over a Zipf(1.1) vocabulary of 262,144 tokens: 10^5 draws under
// each preset's own rule, the chain run once. With no cut (T = 1, nothing else) every draw
// searches the whole vocabulary: the lesson through CumulativeWalk, llama.cpp and hf through a
// binary search on the running sums, vLLM through its exponential race (one exponential per
// candidate and draw, so top-k 40 there). The default N is 1,000; the figure to watch is that
// 10^5 stays well under a second, so the button answers at once and a cancel is seldom needed.
#include "engine/models/synthetic_logits.h"
#include "engine/sampler/explorer_draws.h"

#include <benchmark/benchmark.h>

using namespace logitlab::engine;

namespace {

constexpr std::int64_t kVocab = 262'144;
constexpr std::uint64_t kDraws = 100'000;

void BM_ExplorerDraws(benchmark::State& state)
{
    static const Eigen::ArrayXd logits = zipfLogits(kVocab, 1.1);
    const auto semantics = allSemantics()[static_cast<std::size_t>(state.range(0))];
    ExplorerChain chain{semantics, SamplerSettings{}, {}, {}};
    if (semantics == Semantics::Vllm)
        chain.lesson.topK = 40;
    std::uint64_t seed = 1;
    for (auto _ : state) {
        auto draws = explorerDraws(logits, chain, kDraws, "mt19937_64", seed++);
        benchmark::DoNotOptimize(draws);
    }
    state.SetLabel(semanticsName(semantics) + (semantics == Semantics::Vllm ? ", top-k 40" : ", no cut") +
                   ", 10^5 draws, V = 262,144");
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kDraws));
}

}  // namespace

BENCHMARK(BM_ExplorerDraws)
    ->DenseRange(0, 3)
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);

BENCHMARK_MAIN();
