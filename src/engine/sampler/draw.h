// The final random pick over a finished candidate array, by each library's rule: the lesson's
// walk down the sorted list, llama.cpp's dist (running sum >= u * total in array order, no draw
// for a single candidate), a multinomial in id order (hf) and vLLM's exponential race.
#pragma once

#include "engine/rng/rng.h"
#include "engine/sampler/candidate_array.h"
#include "engine/sampler/semantics.h"

#include <cstddef>

namespace logitlab::engine {

// Precondition: candidates is not empty and its p are a softmax over its entries.
std::size_t drawIndex(const CandidateArray& candidates, Semantics semantics, Rng& rng);

}  // namespace logitlab::engine
