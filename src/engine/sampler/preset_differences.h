// Why the semantics presets (lesson, llama.cpp, hf, vllm) keep different tokens for the same
// values: for each pair that disagrees, the documented rules (D1..D10 of docs/semantics.md) that
// can separate them for these settings and logits. One explanation for every front end:
// `logitlab-cli candidates --compare` and the Explorer's Compare tab.
#pragma once

#include "engine/core/result.h"
#include "engine/sampler/candidate.h"
#include "engine/sampler/chain_settings.h"
#include "engine/sampler/semantics.h"

#include <Eigen/Core>
#include <string>
#include <vector>

namespace logitlab::engine {

// Said when presets disagree and no documented rule applies.
inline constexpr const char* kUnexplainedPresetDifference = "order or float rounding (see docs/semantics.md)";

// The rules that can separate presets `a` and `b` for these settings and logits, most specific
// first; empty when none applies. `hasHistory`: tokens before this step were given (penalties
// look at them); `libraryDefaults`: each preset filled in its library's default values.
std::vector<std::string> explainPresetDifference(Semantics a, Semantics b, const ChainSettings& settings,
                                                 const Eigen::Ref<const Eigen::ArrayXd>& logits,
                                                 bool hasHistory = false, bool libraryDefaults = false);

struct PresetDifference {
    Semantics a;
    Semantics b;
    std::vector<std::string> rules;  // never empty
};

// Each pair of presets (allSemantics() order) that disagrees: one runs the values and the other
// rejects them, or their survivors or probabilities (beyond 1e-9) differ. `results` holds each
// preset's survivors or error, in allSemantics() order.
std::vector<PresetDifference> presetDifferences(const std::vector<Result<CandidateList>>& results,
                                                const ChainSettings& settings,
                                                const Eigen::Ref<const Eigen::ArrayXd>& logits, bool hasHistory = false,
                                                bool libraryDefaults = false);

}  // namespace logitlab::engine
