// The autoregressive loop: one pass of the built-in model per output token, each pass fed the
// tokens chosen so far, the sampler chain picking the next one. Stateful stages (penalties, DRY,
// no-repeat n-grams, mirostat's mu, XTC's coin) keep their state from step to step, as in a real
// decode. Every step is recorded (token, probability, rank, entropy, survivors, the cut, mu) and
// can be rewound; a step can be forced to another token, or the draws reseeded, to branch.
// The logits come from a StepLogitsSource: the built-in model (free running) or an imported
// dump replayed teacher-forced, where the history is the model's own tokens and each step
// also records the model's actual token against the sampler's pick.
#pragma once

#include "engine/models/ngram_model.h"
#include "engine/models/step_logits_source.h"
#include "engine/rng/rng.h"
#include "engine/sampler/sampler_chain.h"

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
    std::size_t index = 0;           // 0-based step
    std::int32_t token = 0;          // the chosen token's id
    bool forced = false;             // chosen by a branch, not drawn
    double probability = 0.0;        // its probability after the chain (what the draw used)
    double modelProbability = 0.0;   // its probability in the model's own distribution
    std::int64_t rank = 0;           // 1 = the model's most likely token (ties by id)
    double entropyBits = 0.0;        // of the model's distribution
    std::size_t survivors = 0;       // tokens the chain left with p > 0
    double cutMass = 0.0;            // the model's probability the chain removed
    double mu = 0.0;                 // mirostat's mu before the step; NaN without mirostat
    std::vector<LoopCandidate> top;  // the model's most likely tokens, most likely first
    double topLogitGap = 0.0;        // logit of the most likely token minus the second's (near-ties)

    // Teacher-forced replay only: the token the history got at this step and how the chain saw it.
    std::int32_t actual = -1;        // the model's token, or the argmax when the source does not know it; -1: no replay
    bool actualKnown = false;        // the source knew the model's token (else `actual` is the argmax)
    double actualProbability = 0.0;  // after the chain (0 when the chain cut it)
    double actualModelProbability = 0.0;  // in the model's own distribution
    std::int64_t actualRank = 0;          // 1 = the model's most likely token (ties by id)
    bool actualCut = false;               // the chain removed the model's token
    bool matches() const { return actual >= 0 && actual == token; }
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
    // Any source; `prompt` holds ids the source's vocabulary may not know (skipped in the history).
    GenerationLoop(std::shared_ptr<const StepLogitsSource> source, SamplerChain chain, std::unique_ptr<Rng> rng,
                   std::vector<std::int32_t> prompt);
    GenerationLoop(const GenerationLoop& other);
    // A copy of `other` as other.rewind(count) would leave it, without copying the later steps'
    // records and snapshots (a branch at step 0 of a 4,096-step run copies nothing of them).
    GenerationLoop(const GenerationLoop& other, std::size_t count);
    GenerationLoop(GenerationLoop&&) noexcept = default;
    GenerationLoop& operator=(const GenerationLoop&) = delete;
    GenerationLoop& operator=(GenerationLoop&&) noexcept = default;

    // One pass: the model's logits after the prompt and the tokens so far, the chain, the draw
    // (or `forced`, a vocabulary id the caller checked, which the stages then see as the pick).
    // Returns the step's record. Under a teacher-forced source the pick is recorded, while the
    // history (and the stateful stages' accept) gets the model's actual token. Not past atEnd().
    const LoopStep& step(std::optional<std::int32_t> forced = std::nullopt);
    // How many steps the source allows from the start: a replayed file's steps, or the room a
    // GGUF model's cache leaves after the prompt; nullopt: no bound.
    std::optional<std::size_t> stepLimit() const;
    bool atEnd() const;  // stepLimit() steps taken
    // Back to just after step `count` (0: before the first), with the chain and RNG as they were.
    void rewind(std::size_t count);
    // From the next step on, draws come from this generator.
    void reseed(std::unique_ptr<Rng> rng);

    const std::vector<LoopStep>& steps() const { return m_steps; }
    std::vector<std::int32_t> tokens() const;  // the picks (forced or drawn), step by step
    std::vector<std::int32_t>
    history() const;           // what the source read: the picks, or under teacher forcing the actual tokens
    std::string text() const;  // the generated tokens as text (joinWordTokens)
    // The built-in model; only for a loop made from one (hasModel()).
    const NgramModel& model() const { return *m_model; }
    bool hasModel() const { return m_model != nullptr; }
    const StepLogitsSource& source() const { return *m_source; }
    const std::vector<std::string>& vocabulary() const { return m_source->tokens(); }
    const SamplerChain& chain() const { return m_chain; }
    const std::vector<std::int32_t>& prompt() const { return m_prompt; }
    // History tokens the chain and its per-step snapshots hold copies of (DRY's automaton): the
    // loop's memory beyond its records. Stays within one history, never one per step.
    std::size_t heldHistoryTokens() const;

private:
    struct Snapshot {
        SamplerChain chain;
        std::unique_ptr<Rng> rng;
    };
    double mirostatMu() const;
    // The stages see `token` as the pick when the chain kept it; the history gets it either way.
    void acceptToken(const CandidateArray& final, std::int32_t token);
    std::int64_t rankOf(std::int32_t token) const;

    std::shared_ptr<const StepLogitsSource> m_source;
    std::shared_ptr<const NgramModel> m_model;  // null unless the source is the built-in model
    SamplerChain m_chain;
    std::unique_ptr<Rng> m_rng;
    std::vector<std::int32_t> m_prompt;
    std::vector<std::int32_t> m_context;  // prompt + generated, what the model reads
    SamplerContext m_samplerContext;      // history: the prompt's known tokens + generated
    std::size_t m_promptHistory = 0;      // how many of the history's tokens are the prompt's
    std::vector<LoopStep> m_steps;
    std::vector<std::int32_t> m_picks;  // the tokens chosen (drawn or forced), by step
    std::vector<Snapshot> m_snapshots;  // the state before each step
    std::vector<double> m_logits;
    std::vector<double> m_finalP;
    std::vector<double> m_modelP;  // the model's softmax at the current step
};

// A greedy near tie: the chain left one token (T = 0, top-k = 1) and the two most likely tokens'
// logits differ by at most this. 0.05 is a few ulps of a bf16 logit near 10 (ulp 0.0625) and
// the size of the batch-dependent reduction errors float32 kernels reach over a large hidden
// size: a gap this small can flip under another batch size (the Batch invariance page).
inline constexpr double kNearTieLogitGap = 0.05;
bool isGreedyNearTie(const LoopStep& step);

// The first step where two runs chose different tokens, and the model's probability of each
// there (the same prefix, so the same distribution): the gap is a - b.
struct Divergence {
    std::size_t step = 0;
    double probabilityA = 0.0;
    double probabilityB = 0.0;
};
std::optional<Divergence> firstDivergence(const std::vector<LoopStep>& a, const std::vector<LoopStep>& b);

// A replay's agreement: steps where the pick was the model's known token, steps where the chain
// cut the model's known token, and how many steps knew the model's token at all.
struct ReplayAgreement {
    std::size_t known = 0;
    std::size_t matches = 0;
    std::size_t cut = 0;
    double rate() const { return known ? static_cast<double>(matches) / static_cast<double>(known) : 0.0; }
};
ReplayAgreement replayAgreement(const std::vector<LoopStep>& steps);

}  // namespace logitlab::engine
