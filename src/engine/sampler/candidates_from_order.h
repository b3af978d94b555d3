// candidates() for callers that change only the temperature: the order of probability at any
// T > 0 is the order of the logits, so it can be sorted once and reused. Given the softmax
// probabilities at T and that order, this gives the same CandidateList as candidates(), bit for
// bit, in O(survivors) instead of a partial sort of the whole vocabulary per call. (At
// V = 262,144 with a wide nucleus, the partial sort is most of a frame.)
#pragma once

#include "engine/sampler/candidate.h"
#include "engine/sampler/sampler_settings.h"

#include <Eigen/Core>
#include <cstdint>
#include <vector>

namespace logitlab::engine {

// Ids by descending logit, lower id first on ties. O(V log V): call it when the logits change.
std::vector<std::int32_t> idsByDescendingLogit(const Eigen::Ref<const Eigen::ArrayXd>& logits);

// Preconditions: settings.temperature > 0 and valid; probabilities == softmax(logits, T) as a
// vector; order == idsByDescendingLogit(logits). For T = 0 use the argmax (order.front()).
CandidateList candidatesFromOrder(const std::vector<double>& probabilities, const std::vector<std::int32_t>& order,
                                  const SamplerSettings& settings);

}  // namespace logitlab::engine
