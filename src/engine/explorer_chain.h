// The Explorer's sampler: the lesson's settings (temperature, top-k, top-p), the further chain
// stages the Explorer offers (min-p, typical), and the semantics preset whose rules, order and
// boundaries run them. With the lesson preset and no further stage it is exactly the lesson's
// candidates(), on the fast path; otherwise the zoo's chain (buildChain + evaluateChain).
#pragma once

#include "candidate.h"
#include "chain_settings.h"
#include "result.h"
#include "sampler_analysis.h"
#include "sampler_settings.h"
#include "semantics.h"
#include "temperature_sweep.h"

#include <Eigen/Core>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace logitlab::engine {

struct ExplorerChain {
    Semantics semantics = Semantics::Lesson;
    SamplerSettings lesson;          // temperature, top-k, top-p
    std::optional<double> minP;      // keep tokens with p >= min-p * p_max
    std::optional<double> typical;   // locally typical sampling mass

    bool lessonOnly() const { return semantics == Semantics::Lesson && !minP && !typical; }
    friend bool operator==(const ExplorerChain&, const ExplorerChain&) = default;
};

ChainSettings toChainSettings(const ExplorerChain& chain);

// A message naming the stage and the problem (e.g. "typical: not part of the vllm chain").
std::optional<std::string> validateExplorerChain(const ExplorerChain& chain);

// The active stages in the preset's order: "top-k=40 → top-p=0.9 → temperature=0.8".
std::string describeExplorerChain(const ExplorerChain& chain);

// analyse() for any preset. `order` is idsByDescendingLogit(logits). For a chain, `pRaw` is the
// zoo's (softmax with the chain's logit changes, before truncation) and the rule is Chain.
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
