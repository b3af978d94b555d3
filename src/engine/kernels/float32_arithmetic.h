// The libraries' float32 arithmetic, for `library` mode (docs/semantics.md, "Arithmetic"):
// llama.cpp's llama_sampler_softmax_impl (float max, expf, a float running sum in array order, a
// float divide) and its dist sampler's final softmax (the sum in double); PyTorch's CPU float32
// softmax (max, exp, sum, then a multiply by 1 / sum), log_softmax (x - max - log sum) and cumsum
// (a double accumulator, each output rounded to float). Values are kept in doubles that hold
// float32 numbers exactly.
#pragma once

#include "engine/sampler/candidate_array.h"

#include <vector>

namespace logitlab::engine::detail {

inline double f32(double x) { return static_cast<double>(static_cast<float>(x)); }

// Every logit rounded to float32, as the libraries hold them.
void roundLogitsToFloat(CandidateArray& a);

// llama_sampler_softmax_impl on the array as it is (sort first where llama.cpp does): p in float.
void llamaSoftmax(CandidateArray& a);
// llama.cpp's dist sampler: expf in float, the sum in double, p = float(p / sum).
void llamaDistSoftmax(CandidateArray& a);

std::vector<float> logitsAsFloat(const CandidateArray& a);
std::vector<float> torchSoftmax(const std::vector<float>& logits);
std::vector<float> torchLogSoftmax(const std::vector<float>& logits);
std::vector<float> torchCumsum(const std::vector<float>& values);
// Writes torch's float32 softmax of the array's logits into p, in array order.
void torchSoftmax(CandidateArray& a);

}  // namespace logitlab::engine::detail
