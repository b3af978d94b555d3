// Runs a chain on a distribution and reports its survivors the way candidates() does: id, p
// (renormalised over the survivors) and p_raw. For a chain p_raw is the token's probability in
// a softmax over the whole vocabulary with every logit change of the chain applied (bias,
// penalties, temperature) but no truncation. The lesson preset's own chain (temperature, top-k,
// top-p) takes the lesson's fast candidates() path, so its results stay bit-identical.
#pragma once

#include "engine/sampler/candidate.h"
#include "engine/sampler/sampler_chain.h"
#include "engine/sampler/sampler_settings.h"

#include <Eigen/Core>
#include <optional>

namespace logitlab::engine {

// The lesson settings equivalent to `chain`, when it is a lesson chain of temperature, top-k and
// top-p only (in that order); otherwise nothing.
std::optional<SamplerSettings> lessonFastPath(const SamplerChain& chain);

// Survivors of a finished array, most probable first, ties by id. Masked (-inf) tokens are left
// out, except under the lesson's rules, which list a -inf token with p = 0 like candidates() does.
CandidateList survivorsOf(const CandidateArray& final, const Eigen::Ref<const Eigen::ArrayXd>& logits,
                          const SamplerContext& context, Semantics semantics);

// run() plus survivorsOf(), or candidates() for the lesson's own chain.
CandidateList evaluateChain(SamplerChain& chain, const Eigen::Ref<const Eigen::ArrayXd>& logits,
                            SamplerContext& context);

}  // namespace logitlab::engine
