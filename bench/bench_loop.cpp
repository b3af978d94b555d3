// Steps of the autoregressive loop on the built-in model (a word trigram model over the
// project's docs, a few thousand tokens): the model's logits for the whole vocabulary, llama.cpp's
// default chain (top-k 40, top-p 0.95, min-p 0.05, temperature 0.8), the draw and the step's
// record (rank, entropy, survivors, top tokens). Target: at least 2,000 steps per second on one
// core. Also the model alone (logits only) and loading it from its compiled-in bytes.
#include "engine/experiments/generation_loop.h"
#include "engine/models/builtin_model.h"
#include "engine/models/word_tokens.h"
#include "engine/rng/rng_factory.h"
#include "engine/sampler/chain_settings.h"

#include <benchmark/benchmark.h>

using namespace logitlab::engine;

namespace {

GenerationLoop freshLoop(const ChainSettings& settings)
{
    auto chain = buildChain(withLibraryDefaults(settings, Semantics::LlamaCpp), Semantics::LlamaCpp);
    const auto model = builtinModel();
    return GenerationLoop(model, std::move(chain).value(), std::move(makeRng("mulberry32", 42)).value(),
                          model->contextIds(wordTokens("The sampler")));
}

// One step each iteration; the loop is rewound every 256 steps so the history stays realistic.
void BM_LoopStepLlamaDefaults(benchmark::State& state)
{
    GenerationLoop loop = freshLoop({});
    for (auto _ : state) {
        if (loop.steps().size() == 256)
            loop.rewind(0);
        benchmark::DoNotOptimize(loop.step().token);
    }
    state.counters["steps_per_s"] =
        benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    state.counters["vocab"] = static_cast<double>(builtinModel()->vocabSize());
}
BENCHMARK(BM_LoopStepLlamaDefaults)->Unit(benchmark::kMicrosecond);

void BM_ModelLogits(benchmark::State& state)
{
    const auto model = builtinModel();
    const auto context = model->contextIds(wordTokens("the chain keeps"));
    std::vector<double> logits(model->vocabSize());
    for (auto _ : state) {
        model->logits(context, logits.data());
        benchmark::DoNotOptimize(logits.data());
    }
}
BENCHMARK(BM_ModelLogits)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
