// The lesson's candidates(logits, settings): softmax at T, sort by probability (ties: lower id
// first), top-k, then top-p (keep the token whose running total first exceeds p), renormalise.
// Temperature 0 is greedy: the argmax alone, with p = 1.
//
// The vocabulary is never fully sorted when top-k or top-p cuts it short: a histogram of the
// exps finds the few ids that can survive, and only those are divided by the sum and sorted, so
// V = 262,144 with a small nucleus costs little more than the softmax itself. Every number is
// the lesson's JavaScript's, bit for bit (docs/engine.md).
#pragma once

#include "engine/sampler/candidate.h"
#include "engine/sampler/sampler_settings.h"

#include <Eigen/Core>

#include <vector>

namespace logitlab::engine {

// Preconditions: validateSettings(settings) and validateLogits(logits) both passed.
CandidateList candidates(const Eigen::Ref<const Eigen::ArrayXd>& logits, const SamplerSettings& settings);
CandidateList candidates(const Eigen::Ref<const Eigen::ArrayXf>& logits, const SamplerSettings& settings);

// candidates() for a caller that already holds the softmax at settings.temperature (> 0, as
// softmax() computes it): the same list, bit for bit, without a second exp pass.
CandidateList candidatesFromProbabilities(const std::vector<double>& probabilities, const SamplerSettings& settings);

}  // namespace logitlab::engine
