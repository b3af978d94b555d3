// Cost of one token through a sampler chain over a Llama-3-sized vocabulary (V = 128,256
// float32 logits drawn from normal(0, 2.5)). The target: llama.cpp's default chain (top-k 40,
// top-p 0.95, min-p 0.05, temperature 0.8, then the draw) at a median of at most 0.5 ms per token
// on one core. Top-k selects from the raw logits first, so no softmax ever covers the vocabulary.
#include "engine/rng/mulberry32.h"
#include "engine/sampler/chain_settings.h"
#include "engine/sampler/draw.h"
#include "engine/sampler/sampler_chain.h"

#include <benchmark/benchmark.h>

#include <random>
#include <vector>

using namespace logitlab::engine;

namespace {

constexpr std::size_t kVocab = 128'256;

const std::vector<float>& logits()
{
    static const std::vector<float> values = [] {
        std::mt19937 gen(20240607);
        std::normal_distribution<float> normal(0.0f, 2.5f);
        std::vector<float> v(kVocab);
        for (auto& l : v)
            l = normal(gen);
        return v;
    }();
    return values;
}

SamplerChain defaultChain(Semantics semantics)
{
    auto chain = buildChain(withLibraryDefaults({}, semantics), semantics);
    return std::move(chain).value();
}

// One token: run the chain on the logits and draw, as a decode loop would per step.
void runTokens(benchmark::State& state, SamplerChain chain)
{
    const auto& l = logits();
    Mulberry32 rng(42);
    SamplerContext context;
    for (auto _ : state) {
        const CandidateArray final = chain.run(l.data(), l.size(), context);
        benchmark::DoNotOptimize(final[drawIndex(final, chain.semantics(), rng)].id);
    }
    state.SetItemsProcessed(state.iterations());
}

void BM_LlamaCppDefaultChain(benchmark::State& state) { runTokens(state, defaultChain(Semantics::LlamaCpp)); }

// The same stages with the whole vocabulary copied into the array first (no top-k shortcut):
// what the shortcut saves.
void BM_LlamaCppDefaultChainFullArray(benchmark::State& state)
{
    SamplerChain chain = defaultChain(Semantics::LlamaCpp);
    const auto& l = logits();
    Mulberry32 rng(42);
    SamplerContext context;
    for (auto _ : state) {
        CandidateArray array = CandidateArray::fromLogits(l.data(), l.size());
        chain.apply(array, context);
        array.softmax();
        benchmark::DoNotOptimize(array[drawIndex(array, Semantics::LlamaCpp, rng)].id);
    }
}

// Hugging Face's sampling defaults (temperature first, top-k 50 keeping ties): the temperature
// touches every logit before the cut, so the whole array is built.
void BM_HfDefaultChain(benchmark::State& state)
{
    ChainSettings settings;
    settings.temperature = 0.8;  // 1 would be off; make the temperature stage do its work
    settings.topK = 50;
    settings.topP = 0.95;
    runTokens(state, std::move(buildChain(settings, Semantics::Hf)).value());
}

}  // namespace

BENCHMARK(BM_LlamaCppDefaultChain)->Unit(benchmark::kMicrosecond)->Repetitions(25)->ReportAggregatesOnly(true);
BENCHMARK(BM_LlamaCppDefaultChainFullArray)->Unit(benchmark::kMicrosecond)->Repetitions(10)->ReportAggregatesOnly(true);
BENCHMARK(BM_HfDefaultChain)->Unit(benchmark::kMicrosecond)->Repetitions(10)->ReportAggregatesOnly(true);

BENCHMARK_MAIN();
