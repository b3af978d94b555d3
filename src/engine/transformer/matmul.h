// The forward pass's matrix products, y = W x for a batch of token states, reading the weights
// where they lie in the model file: F32 directly; quantised types with a block kernel
// (block_dots.h: Q8_0 on every path, Q4_0, Q5_0, Q4_K and Q6_K on AVX2) block by block for
// batches below kDirectQuantisedBatch, so a decode step reads each weight's bytes once; any
// other type (and every quantised type in larger batches) dequantised a tile of rows at a time
// into a per-thread buffer, then multiplied as F32, the dequantisation paid once per batch.
//
// Each output element (one row of W against one state) is computed by one thread with one
// arithmetic order that depends on the kernel path, the type, the reduction plan and (for
// quantised types) whether the batch is below kDirectQuantisedBatch, never on the thread count
// nor on which other rows and states share its tile. F32 kernels: eight lanes over k (lane k
// mod 8), added as hsum8 below, then the columns past the last multiple of 8 in order. Block
// kernels: as block_dots.h says.
//
// The scalar path is the semantic reference (plain sequential sums); the AVX2 path (with FMA)
// runs where the processor has it (cpu_features.h). Their results differ by rounding only.
#pragma once

#include "engine/gguf/ggml_type.h"
#include "engine/transformer/thread_pool.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace logitlab::engine::transformer {

// A weight matrix as the file holds it: `rows` rows of `cols` weights each (ggml's ne[1] and
// ne[0]), each row a whole number of the type's blocks, rows back to back.
struct WeightView {
    gguf::GgmlType type = gguf::GgmlType::F32;
    const std::byte* data = nullptr;
    std::int64_t cols = 0;
    std::int64_t rows = 0;

    std::size_t rowBytes() const;
    const std::byte* row(std::int64_t r) const { return data + static_cast<std::size_t>(r) * rowBytes(); }
};

// How each reduction over a row is carried out. splitK = 1: one pass over the row. splitK = S:
// the row cut into S slices of whole 32-column blocks (slice s: blocks [s*B/S, (s+1)*B/S) of
// B), each reduced from zero by the kernel, the S partial sums added in slice order. The
// batch-invariance lab's plans (lm_head_kernels.h) choose S by batch size; a caller that wants
// batch-dependent arithmetic passes a plan per product.
//
// blockKernels false: quantised rows are dequantised and multiplied as F32 whatever the batch,
// as a server's batched kernel does; a decode step then has a batch of 8's arithmetic (the
// Batch invariance page's "eigen-gemm" on a real model).
struct ReductionPlan {
    int splitK = 1;
    bool blockKernels = true;
    friend bool operator==(const ReductionPlan&, const ReductionPlan&) = default;
};
inline constexpr int kMaxSplitK = 64;

enum class KernelPath { Scalar, Avx2 };
// Avx2 when the processor has AVX2 and FMA, else Scalar.
KernelPath bestKernelPath();
std::string kernelPathName(KernelPath path);

// Batches of fewer states than this multiply Q8_0 weights block by block; larger ones
// dequantise tiles of rows first.
inline constexpr std::int64_t kDirectQuantisedBatch = 4;
// Rows per dequantised tile.
inline constexpr std::int64_t kTileRows = 16;

// One product of a batch: state t is x[t * xStride + k] for k < w.cols, its output
// y[t * yStride + r] for r < w.rows.
struct MatmulTask {
    const WeightView* w = nullptr;
    const float* x = nullptr;
    std::int64_t xStride = 0;
    float* y = nullptr;
    std::int64_t yStride = 0;
};

// Scratch each thread needs for the tasks (floats): a tile of dequantised rows.
std::size_t matmulScratchFloats(std::span<const MatmulTask> tasks);

// Every task for `batch` states, all in one run of the pool (each thread takes its share of
// each task's rows). `scratch` holds pool.threads() buffers of matmulScratchFloats() floats,
// back to back.
void matmul(ThreadPool& pool, std::span<const MatmulTask> tasks, std::int64_t batch, const ReductionPlan& plan,
            KernelPath path, float* scratch);

// One thread's part of matmul(): rows [rowBegin, rowEnd) of one task. For tests and callers
// that schedule work themselves.
void matmulRows(const MatmulTask& task, std::int64_t batch, std::int64_t rowBegin, std::int64_t rowEnd,
                const ReductionPlan& plan, KernelPath path, float* scratch);

// `count` weights from the start of a row of `type` (a whole number of blocks) as floats, as
// gguf::dequantizeRow gives them (F32 copied).
void dequantize(gguf::GgmlType type, const std::byte* src, float* out, std::int64_t count);

// sum_k a[k] b[k] over k < n, with the arithmetic of one element of an F32 product.
float dotF32(const float* a, const float* b, std::int64_t n, KernelPath path);
// out[r] = dotF32(rows + r * stride, x, n) for r < count, four rows at a time (same bits).
void dotsF32(const float* rows, std::int64_t stride, std::int64_t count, const float* x, std::int64_t n, float* out,
             KernelPath path);
// y[k] += alpha x[k] for k < n (fused multiply-adds on the AVX2 path).
void axpyF32(float alpha, const float* x, float* y, std::int64_t n, KernelPath path);
// out[k] = sum over r < count of weights[r] rows[r * stride + k], for k < n: the same bits as
// zeroing out, then axpyF32(weights[r], rows + r * stride, out, n) for r in order, with the
// sums kept in registers across the rows.
void weightedSumF32(const float* rows, std::int64_t stride, std::int64_t count, const float* weights, std::int64_t n,
                    float* out, KernelPath path);

}  // namespace logitlab::engine::transformer
