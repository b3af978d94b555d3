// The autoregressive loop: one pass of the built-in model per output token, each pass fed the
// tokens chosen so far, the sampler chain picking the next one. Stateful stages (penalties, DRY,
// no-repeat n-grams, mirostat's mu, XTC's coin) keep their state from step to step, as in a real
// decode. Every step is recorded (token, probability, rank, entropy, survivors, the cut, mu) and
// can be rewound; a step can be forced to another token, or the draws reseeded, to branch.
#pragma once

#include "ngram_model.h"
#include "rng.h"
#include "sampler_chain.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace logitlab::engine {

// One token of the model's distribution at a step: its probability before and after the chain.
struct LoopCandidate {
    std::int32_t id = 0;
    double modelP = 0.0;  // softmax of the model's logits (T = 1, no stage)
    double finalP = 0.0;  // after the chain, renormalised over the survivors (0 when cut)
};

struct LoopStep {
    std::size_t index = 0;         // 0-based step
    std::int32_t token = 0;        // the chosen token's id
    bool forced = false;           // chosen by a branch, not drawn
    double probability = 0.0;      // its probability after the chain (what the draw used)
    double modelProbability = 0.0; // its probability in the model's own distribution
    std::int64_t rank = 0;         // 1 = the model's most likely token (ties by id)
    double entropyBits = 0.0;      // of the model's distribution
    std::size_t survivors = 0;     // tokens the chain left with p > 0
    double cutMass = 0.0;          // the model's probability the chain removed
    double mu = 0.0;               // mirostat's mu before the step; NaN without mirostat
    std::vector<LoopCandidate> top; // the model's most likely tokens, most likely first
};

// A branch: at step `at`, force `token` or continue with draws reseeded with `seed`.
struct LoopBranch {
    std::size_t at = 0;
    std::optional<std::int32_t> token;
    std::optional<std::uint64_t> seed;
};

class GenerationLoop {
public:
    static constexpr std::size_t kTopTokens = 12;

    // `rng` makes the draws; the chain's own random stages keep the generator set on it.
    // `prompt` holds context ids (NgramModel::contextIds); the vocabulary ones start the history
    // the penalties read.
    GenerationLoop(std::shared_ptr<const NgramModel> model, SamplerChain chain, std::unique_ptr<Rng> rng,
                   std::vector<std::int32_t> prompt);
    GenerationLoop(const GenerationLoop& other);
    GenerationLoop(GenerationLoop&&) noexcept = default;
    GenerationLoop& operator=(const GenerationLoop&) = delete;
    GenerationLoop& operator=(GenerationLoop&&) noexcept = default;

    // One pass: the model's logits after the prompt and the tokens so far, the chain, the draw
    // (or `forced`, a vocabulary id the caller checked, which the stages then see as the pick).
    // Returns the step's record.
    const LoopStep& step(std::optional<std::int32_t> forced = std::nullopt);
    // Back to just after step `count` (0: before the first), with the chain and RNG as they were.
    void rewind(std::size_t count);
    // From the next step on, draws come from this generator.
    void reseed(std::unique_ptr<Rng> rng);

    const std::vector<LoopStep>& steps() const { return m_steps; }
    std::vector<std::int32_t> tokens() const;
    std::string text() const;  // the generated tokens as text (joinWordTokens)
    const NgramModel& model() const { return *m_model; }
    const SamplerChain& chain() const { return m_chain; }
    const std::vector<std::int32_t>& prompt() const { return m_prompt; }

private:
    struct Snapshot {
        SamplerChain chain;
        std::unique_ptr<Rng> rng;
    };
    double mirostatMu() const;

    std::shared_ptr<const NgramModel> m_model;
    SamplerChain m_chain;
    std::unique_ptr<Rng> m_rng;
    std::vector<std::int32_t> m_prompt;
    std::vector<std::int32_t> m_context;  // prompt + generated, what the model reads
    SamplerContext m_samplerContext;      // history: the prompt's known tokens + generated
    std::size_t m_promptHistory = 0;      // how many of the history's tokens are the prompt's
    std::vector<LoopStep> m_steps;
    std::vector<Snapshot> m_snapshots;    // the state before each step
    std::vector<double> m_logits;
    std::vector<double> m_finalP;
    std::vector<double> m_modelP;  // the model's softmax at the current step
};

// The first step where two runs chose different tokens, and the model's probability of each
// there (the same prefix, so the same distribution): the gap is a - b.
struct Divergence {
    std::size_t step = 0;
    double probabilityA = 0.0;
    double probabilityB = 0.0;
};
std::optional<Divergence> firstDivergence(const std::vector<LoopStep>& a, const std::vector<LoopStep>& b);

}  // namespace logitlab::engine
