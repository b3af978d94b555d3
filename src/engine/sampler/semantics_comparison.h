// The Explorer's Compare: the same values under every semantics preset, each preset's survivors
// (or why it cannot run them), its stage order, and why pairs of presets disagree
// (preset_differences.h, the explanation `logitlab-cli candidates --compare` prints).
#pragma once

#include "engine/core/result.h"
#include "engine/sampler/candidate.h"
#include "engine/sampler/explorer_chain.h"
#include "engine/sampler/preset_differences.h"

#include <Eigen/Core>
#include <string>
#include <vector>

namespace logitlab::engine {

struct SemanticsComparison {
    std::vector<Result<CandidateList>> results;  // allSemantics() order
    std::vector<std::string> orders;             // each preset's active stages in its order, or its error
    std::vector<PresetDifference> differences;   // each disagreeing pair and the rules behind it
};

SemanticsComparison compareSemanticsExplained(const Eigen::Ref<const Eigen::ArrayXd>& logits,
                                              const ExplorerChain& chain);

}  // namespace logitlab::engine
