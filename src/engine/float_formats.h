// Rounding float32 values to the 16-bit storage formats of served models: bfloat16 (8 exponent
// bits, 7 mantissa bits) and IEEE float16 (5 and 10), round to nearest, ties to even, returned
// widened back to float32 so a kernel can store in one format and accumulate in float32.
// Minimal on purpose (the batch-invariance lab only stores weights and states in these formats).
#pragma once

namespace logitlab::engine {

// NaN stays NaN; values beyond bfloat16's range round to infinity like any overflow.
float roundToBfloat16(float value);
// Overflow (|x| >= 65520) gives infinity; subnormals keep float16's 2^-24 spacing.
float roundToFloat16(float value);

}  // namespace logitlab::engine
