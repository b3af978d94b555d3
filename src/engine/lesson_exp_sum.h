// Internal: the hot loop of the lesson's softmax, `exps = scaled.map(x => Math.exp(x - max))`
// followed by `exps.reduce((a, b) => a + b, 0)`, with JavaScript's own bits: l / T and the
// subtraction are single IEEE operations on any lane, exp is fdlibm's (fdlibm_exp.h) on SSE2 or
// AVX2 lanes, and the sum is accumulated one term at a time in id order, as reduce does (that
// order is part of the result, so it is never split into partial sums).
#pragma once

#include "fdlibm_exp.h"

#include <cstddef>

namespace logitlab::engine::detail {

// out[i] = fdlibmExp(logits[i] / temperature - maxScaled); returns 0 + out[0] + out[1] + ...
double lessonExpSum(const double* logits, std::size_t n, double temperature, double maxScaled, double* out,
                    ExpPath path = ExpPath::Auto);
double lessonExpSum(const float* logits, std::size_t n, double temperature, double maxScaled, double* out,
                    ExpPath path = ExpPath::Auto);

}  // namespace logitlab::engine::detail
