// The Explorer's sampler: the lesson's settings (temperature, top-k, top-p), every further stage
// of the zoo (min-p, typical, XTC, mirostat, penalties, DRY, logit bias, ...), the stage order
// (the preset's or the user's), the tokens before this step (what penalties and DRY look at),
// and the semantics preset whose rules and boundaries run them. With the lesson preset and no
// further stage it is exactly the lesson's candidates(), on the fast path; otherwise the zoo's
// chain (buildChain + evaluateChain).
#pragma once

#include "engine/core/result.h"
#include "engine/experiments/temperature_sweep.h"
#include "engine/sampler/candidate.h"
#include "engine/sampler/chain_settings.h"
#include "engine/sampler/sampler_analysis.h"
#include "engine/sampler/sampler_parameters.h"  // chainSettingFields(): the Explorer lists a chain's settings by it
#include "engine/sampler/sampler_settings.h"
#include "engine/sampler/semantics.h"

#include <Eigen/Core>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace logitlab::engine {

struct ExplorerChain {
    Semantics semantics = Semantics::Lesson;
    SamplerSettings lesson;             // temperature, top-k, top-p
    ChainSettings stages;               // the rest; its temperature, top-k and top-p are unused
    std::vector<std::int32_t> context;  // tokens before this step, oldest first

    bool lessonOnly() const { return semantics == Semantics::Lesson && stages == ChainSettings{}; }
    // XTC fires at random (probability strictly between 0 and 1): the survivors shown are those of
    // a step where it fires; draws mix both outcomes.
    bool xtcAtRandom() const;
    friend bool operator==(const ExplorerChain&, const ExplorerChain&) = default;
};

ChainSettings toChainSettings(const ExplorerChain& chain);
// The inverse: temperature (1 when unset), top-k and top-p go to the lesson's part.
ExplorerChain fromChainSettings(ChainSettings settings, Semantics semantics);
// A chain as a loop runs it (parseChain()), as the Explorer holds it, after `context` (the
// tokens before the step): an error says what the Explorer cannot hold (chainSettingsOf()) or
// what does not fit a vocabulary of `vocabSize` tokens.
Result<ExplorerChain> explorerChainOf(const SamplerChain& chain, std::vector<std::int32_t> context,
                                      std::size_t vocabSize);

// A message naming the stage and the problem (e.g. "typical: not part of the vllm chain"). With
// a vocabulary size, context tokens and logit-bias ids are checked against it too.
std::optional<std::string> validateExplorerChain(const ExplorerChain& chain, std::size_t vocabSize = 0);

// The chain the Explorer runs for display: XTC at random is shown firing.
Result<SamplerChain> explorerSamplerChain(const ExplorerChain& chain);

// The active stages in the preset's order: "top-k=40 → top-p=0.9 → temperature=0.8".
std::string describeExplorerChain(const ExplorerChain& chain);

// Warnings for a chain that reaches llama.cpp behaviour LogitLab does not reproduce (a logit bias
// after a sorting stage: llamaCppDivergences()); empty when there are none or the chain is invalid.
std::vector<std::string> explorerChainWarnings(const ExplorerChain& chain);

// The chain's cut marks (sampler_analysis.h): tokens whose fate depends on rounding and ties
// across a cut, for vocabularies up to kCutMarksUpTo tokens.
inline constexpr Eigen::Index kCutMarksUpTo = 4096;
std::vector<std::string> explorerCutMarks(const Eigen::Ref<const Eigen::ArrayXd>& logits, const ExplorerChain& chain);

// analyse() for any preset. `order` is idsByDescendingLogit(logits). For a chain, `pRaw` is the
// zoo's (softmax with the chain's logit changes, before truncation) and the rule is Chain; the
// probabilities at T and the entropy are those of the logits after the chain's changes (logit
// bias, penalties on the context, DRY, n-gram bans), so a penalised token shows its penalty.
// Preconditions: validateLogits(logits) and validateExplorerChain(chain) passed.
SamplerAnalysis analyseExplorerChain(const Eigen::Ref<const Eigen::ArrayXd>& logits, const ExplorerChain& chain,
                                     const std::vector<std::int32_t>& order);

// temperatureSweep() for any preset: survivors of the chain at each T.
std::vector<SweepPoint> explorerChainSweep(const Eigen::Ref<const Eigen::ArrayXd>& logits, const ExplorerChain& chain,
                                           const std::vector<double>& temperatures,
                                           const std::vector<std::int32_t>& tracked,
                                           const std::function<bool()>& stop = {});

// The same values under every semantics preset (allSemantics() order): the survivors, or why
// that preset cannot run them.
std::vector<Result<CandidateList>> compareSemantics(const Eigen::Ref<const Eigen::ArrayXd>& logits,
                                                    const ExplorerChain& chain);

}  // namespace logitlab::engine
