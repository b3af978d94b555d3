// The lesson's die roll: one uniform number, walked down the candidates' cumulative
// probabilities, with the last candidate as the safety net against float rounding.
#pragma once

#include "engine/rng/rng.h"
#include "engine/sampler/candidate.h"

namespace logitlab::engine {

// Precondition: list is not empty (candidates() always keeps at least one token).
std::int32_t sample(const CandidateList& list, Rng& rng);

// The same walk for a uniform number the caller already drew, for engines used without
// the virtual interface.
std::int32_t sampleAt(const CandidateList& list, double uniform);

}  // namespace logitlab::engine
