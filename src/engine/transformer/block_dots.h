// Internal to matmul.cpp: products of quantised weight rows with one float state, read block by
// block where the rows lie, so a decode step reads each weight's bytes once and writes no
// dequantised copy. Q8_0 on both kernel paths (the scalar one is its semantic reference); Q4_0,
// Q5_0, Q4_K and Q6_K on the AVX2 path (on the scalar path they are dequantised first, as in
// larger batches).
//
// A row is read in groups of 32 weights: Q8_0's, Q4_0's and Q5_0's blocks, the K-quants'
// sub-blocks (8 to a 256-weight block). Arithmetic per row, on the AVX2 path: eight lanes
// accumulate, group after group, in order,
//   Q8_0, Q4_0, Q5_0: acc += d * ((q0 x0 + q2 x2) + (q1 x1 + q3 x3))   (qi, xi: 8 weights, 8 states)
//   Q4_K:              acc += (d sc) * ((q0 x0 + q2 x2) + (q1 x1 + q3 x3)); acc -= (dmin m) * ((x0 + x1) + (x2 + x3))
//   Q6_K:              acc += (d sc_a) * (q0 x0 + q1 x1); acc += (d sc_b) * (q2 x2 + q3 x3)
// with q the block's integers (offset removed) as floats, and the lanes are added as hsum8. It
// depends on the row, its type and the group range only: never on the other rows of a tile.
#pragma once

#include "engine/gguf/ggml_type.h"
#include "engine/transformer/matmul.h"

#include <cstddef>
#include <cstdint>

namespace logitlab::engine::transformer::detail {

// Weights per group.
inline constexpr std::int64_t kGroupWeights = 32;

// Whether rows of `type` are multiplied block by block on `path`.
bool hasBlockDots(gguf::GgmlType type, KernelPath path);

// `rows` (1 or 4) consecutive rows of `type` (the first at w, rowBytes apart) against state x,
// over groups [g0, g1): out[0..rows). Only where hasBlockDots(type, path).
void blockDots(gguf::GgmlType type, KernelPath path, int rows, const std::byte* w, std::size_t rowBytes, const float* x,
               std::int64_t g0, std::int64_t g1, float* out);

}  // namespace logitlab::engine::transformer::detail
