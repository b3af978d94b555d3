// Internal: the hot loop of the lesson's softmax, `exps = scaled.map(x => Math.exp(x - max))`
// followed by `exps.reduce((a, b) => a + b, 0)`, with JavaScript's own bits: l / T and the
// subtraction are single IEEE operations on any lane, exp is fdlibm's (fdlibm_exp.h) on SSE2 or
// AVX2 lanes, and the sum is accumulated one term at a time in id order, as reduce does (that
// order is part of the result, so it is never split into partial sums).
#pragma once

#include "engine/kernels/fdlibm_exp.h"

#include <cstddef>

namespace logitlab::engine::detail {

// The stride of the sample lessonExpSum() can take.
inline constexpr std::size_t kExpSampleStride = 16;

// out[i] = fdlibmExp(logits[i] / temperature - maxScaled); returns 0 + out[0] + out[1] + ...
// With `sample`, also sample[j] = out[kExpSampleStride j] for every such id below n, copied as the
// pass writes them, while they are in L1: candidates() guesses its cut from them, and reading
// every sixteenth exp back afterwards touches every other cache line of `out`.
double lessonExpSum(const double* logits, std::size_t n, double temperature, double maxScaled, double* out,
                    ExpPath path = ExpPath::Auto, double* sample = nullptr);
double lessonExpSum(const float* logits, std::size_t n, double temperature, double maxScaled, double* out,
                    ExpPath path = ExpPath::Auto, double* sample = nullptr);

}  // namespace logitlab::engine::detail
