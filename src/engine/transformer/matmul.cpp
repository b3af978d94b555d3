#include "engine/transformer/matmul.h"

#include "engine/transformer/block_dots.h"

#include "engine/gguf/gguf_file.h"
#include "engine/kernels/cpu_features.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#define LOGITLAB_TRANSFORMER_X86 1
#endif

namespace logitlab::engine::transformer {

using gguf::GgmlType;

namespace {

constexpr std::int64_t kGroup = detail::kGroupWeights;
// How far ahead of the 8 weights being read a decode step prefetches each F32 row (measured:
// 1024 bytes took 32 weights from 7.5 to 6.6 ns).
constexpr int kPrefetchF32Bytes = 1024;

// Column where slice s of S begins: slices are whole 32-column blocks.
std::int64_t sliceBegin(std::int64_t cols, int s, int slices)
{
    const std::int64_t groups = (cols + kGroup - 1) / kGroup;
    return std::min(cols, groups * s / slices * kGroup);
}

// ---- The scalar path: the semantic reference.

float f32DotScalar(const float* w, const float* x, std::int64_t k0, std::int64_t k1)
{
    float sum = 0.0f;
    for (std::int64_t k = k0; k < k1; ++k)
        sum += w[k] * x[k];
    return sum;
}

#ifdef LOGITLAB_TRANSFORMER_X86
// ---- The AVX2 path.

__attribute__((target("avx2,fma"))) inline float hsum8(__m256 v)
{
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));  // l_i + l_{i+4}
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));                                         // (l0+l4)+(l2+l6), (l1+l5)+(l3+l7)
    s = _mm_add_ss(s, _mm_movehdup_ps(s));                                          // the two added
    return _mm_cvtss_f32(s);
}

// R rows of W (stride ws) against T states (stride xs) over columns [k0, k1): out[r * T + t].
template <int R, int T>
__attribute__((target("avx2,fma"))) void f32TileAvx2(const float* w, std::int64_t ws, const float* x, std::int64_t xs,
                                                     std::int64_t k0, std::int64_t k1, float* out)
{
    __m256 acc[R][T];
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 16
        for (int t = 0; t < T; ++t)
            acc[r][t] = _mm256_setzero_ps();
    const std::int64_t k8 = k0 + (k1 - k0) / 8 * 8;
    for (std::int64_t k = k0; k < k8; k += 8) {
        __m256 xv[T];
#pragma GCC unroll 16
        for (int t = 0; t < T; ++t)
            xv[t] = _mm256_loadu_ps(x + t * xs + k);
#pragma GCC unroll 16
        for (int r = 0; r < R; ++r) {
            if constexpr (T == 1)  // a decode step: the weights stream from memory
                _mm_prefetch(reinterpret_cast<const char*>(w + r * ws + k) + kPrefetchF32Bytes, _MM_HINT_T0);
            const __m256 wv = _mm256_loadu_ps(w + r * ws + k);
#pragma GCC unroll 16
            for (int t = 0; t < T; ++t)
                acc[r][t] = _mm256_fmadd_ps(wv, xv[t], acc[r][t]);
        }
    }
    for (int r = 0; r < R; ++r)
        for (int t = 0; t < T; ++t) {
            float sum = hsum8(acc[r][t]);
            for (std::int64_t k = k8; k < k1; ++k)
                sum += w[r * ws + k] * x[t * xs + k];
            out[r * T + t] = sum;
        }
}

__attribute__((target("avx2,fma"))) void axpyAvx2(float alpha, const float* x, float* y, std::int64_t n)
{
    const __m256 a = _mm256_set1_ps(alpha);
    std::int64_t k = 0;
    for (; k + 8 <= n; k += 8)
        _mm256_storeu_ps(y + k, _mm256_fmadd_ps(a, _mm256_loadu_ps(x + k), _mm256_loadu_ps(y + k)));
    for (; k < n; ++k)
        y[k] = std::fma(alpha, x[k], y[k]);
}

__attribute__((target("avx2,fma"))) void weightedSumAvx2(const float* rows, std::int64_t stride, std::int64_t count,
                                                         const float* weights, std::int64_t n, float* out)
{
    std::int64_t k = 0;
    for (; k + 32 <= n; k += 32) {
        __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps(), a2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps();
        for (std::int64_t r = 0; r < count; ++r) {
            const float* row = rows + r * stride + k;
            const __m256 w = _mm256_set1_ps(weights[r]);
            a0 = _mm256_fmadd_ps(w, _mm256_loadu_ps(row), a0);
            a1 = _mm256_fmadd_ps(w, _mm256_loadu_ps(row + 8), a1);
            a2 = _mm256_fmadd_ps(w, _mm256_loadu_ps(row + 16), a2);
            a3 = _mm256_fmadd_ps(w, _mm256_loadu_ps(row + 24), a3);
        }
        _mm256_storeu_ps(out + k, a0);
        _mm256_storeu_ps(out + k + 8, a1);
        _mm256_storeu_ps(out + k + 16, a2);
        _mm256_storeu_ps(out + k + 24, a3);
    }
    for (; k + 8 <= n; k += 8) {
        __m256 a = _mm256_setzero_ps();
        for (std::int64_t r = 0; r < count; ++r)
            a = _mm256_fmadd_ps(_mm256_set1_ps(weights[r]), _mm256_loadu_ps(rows + r * stride + k), a);
        _mm256_storeu_ps(out + k, a);
    }
    for (; k < n; ++k) {
        float a = 0.0f;
        for (std::int64_t r = 0; r < count; ++r)
            a = std::fma(weights[r], rows[r * stride + k], a);
        out[k] = a;
    }
}
#endif

inline void store(float* y, int slice, float value) { *y = slice == 0 ? value : *y + value; }

// `rows` float rows (stride ws) for output rows [rowOffset, rowOffset + rows) of the task.
void f32Rows(const float* w, std::int64_t ws, std::int64_t rows, std::int64_t rowOffset, const MatmulTask& task,
             std::int64_t batch, int slices, KernelPath path)
{
    const std::int64_t cols = task.w->cols;
    const float* x = task.x;
    const std::int64_t xs = task.xStride;
    auto out = [&](std::int64_t t, std::int64_t r) { return task.y + t * task.yStride + rowOffset + r; };
    for (int s = 0; s < slices; ++s) {
        const std::int64_t k0 = sliceBegin(cols, s, slices);
        const std::int64_t kEnd = sliceBegin(cols, s + 1, slices);  // cols for the last slice
#ifdef LOGITLAB_TRANSFORMER_X86
        if (path == KernelPath::Avx2) {
            std::int64_t t = 0;
            // Tiles of 4 rows by 3 states: 12 accumulators, 7 loads for 12 FMAs (measured on
            // 1536 x 576 x 128: 2.9 ms against 4.9 for 2 x 4 and 6.2 for Eigen's SSE2 product).
            for (; t + 3 <= batch; t += 3) {
                std::int64_t r = 0;
                float tile[12];
                for (; r + 4 <= rows; r += 4) {
                    f32TileAvx2<4, 3>(w + r * ws, ws, x + t * xs, xs, k0, kEnd, tile);
                    for (int i = 0; i < 4; ++i)
                        for (int j = 0; j < 3; ++j)
                            store(out(t + j, r + i), s, tile[i * 3 + j]);
                }
                for (; r < rows; ++r) {
                    f32TileAvx2<1, 3>(w + r * ws, ws, x + t * xs, xs, k0, kEnd, tile);
                    for (int j = 0; j < 3; ++j)
                        store(out(t + j, r), s, tile[j]);
                }
            }
            for (; t < batch; ++t) {
                std::int64_t r = 0;
                float tile[4];
                for (; r + 4 <= rows; r += 4) {
                    f32TileAvx2<4, 1>(w + r * ws, ws, x + t * xs, xs, k0, kEnd, tile);
                    for (int i = 0; i < 4; ++i)
                        store(out(t, r + i), s, tile[i]);
                }
                for (; r < rows; ++r) {
                    f32TileAvx2<1, 1>(w + r * ws, ws, x + t * xs, xs, k0, kEnd, tile);
                    store(out(t, r), s, tile[0]);
                }
            }
            continue;
        }
#endif
        for (std::int64_t t = 0; t < batch; ++t)
            for (std::int64_t r = 0; r < rows; ++r)
                store(out(t, r), s, f32DotScalar(w + r * ws, x + t * xs, k0, kEnd));
    }
}

// Rows [rowBegin, rowEnd) of a quantised task read block by block (block_dots.h), a state at a time.
void blockRows(const MatmulTask& task, std::int64_t batch, std::int64_t rowBegin, std::int64_t rowEnd, int slices,
               KernelPath path)
{
    const WeightView& w = *task.w;
    const std::size_t rowBytes = w.rowBytes();
    const std::int64_t groups = w.cols / kGroup;
    for (int s = 0; s < slices; ++s) {
        const std::int64_t g0 = groups * s / slices;
        const std::int64_t g1 = groups * (s + 1) / slices;
        for (std::int64_t t = 0; t < batch; ++t) {
            const float* x = task.x + t * task.xStride;
            float* y = task.y + t * task.yStride;
            float tile[4];
            std::int64_t r = rowBegin;
            for (; r + 4 <= rowEnd; r += 4) {
                detail::blockDots(w.type, path, 4, w.row(r), rowBytes, x, g0, g1, tile);
                for (int i = 0; i < 4; ++i)
                    store(y + r + i, s, tile[i]);
            }
            for (; r < rowEnd; ++r) {
                detail::blockDots(w.type, path, 1, w.row(r), rowBytes, x, g0, g1, tile);
                store(y + r, s, tile[0]);
            }
        }
    }
}

}  // namespace

std::size_t WeightView::rowBytes() const
{
    return static_cast<std::size_t>(cols) / gguf::blockWeights(type) * gguf::blockBytes(type);
}

KernelPath bestKernelPath()
{
#ifdef LOGITLAB_TRANSFORMER_X86
    // F16C (half-precision conversions, for F16 weights) from CPUID itself: clang 14's
    // __builtin_cpu_supports does not know "f16c", and the fuzz build is clang.
    static const bool has = [] {
        unsigned a = 0, b = 0, c = 0, d = 0;
        return engine::detail::hasAvx2Fma() && __get_cpuid(1, &a, &b, &c, &d) != 0 && (c & bit_F16C) != 0;
    }();
    return has ? KernelPath::Avx2 : KernelPath::Scalar;
#else
    return KernelPath::Scalar;
#endif
}

std::string kernelPathName(KernelPath path) { return path == KernelPath::Avx2 ? "avx2" : "scalar"; }

void dequantize(GgmlType type, const std::byte* src, float* out, std::int64_t count)
{
    if (type == GgmlType::F32)
        std::memcpy(out, src, static_cast<std::size_t>(count) * sizeof(float));
    else
        gguf::dequantizeRow(type, src, out, static_cast<std::size_t>(count));
}

float dotF32(const float* a, const float* b, std::int64_t n, KernelPath path)
{
#ifdef LOGITLAB_TRANSFORMER_X86
    if (path == KernelPath::Avx2) {
        float out = 0.0f;
        f32TileAvx2<1, 1>(a, 0, b, 0, 0, n, &out);
        return out;
    }
#endif
    (void)path;
    return f32DotScalar(a, b, 0, n);
}

void dotsF32(const float* rows, std::int64_t stride, std::int64_t count, const float* x, std::int64_t n, float* out,
             KernelPath path)
{
    std::int64_t r = 0;
#ifdef LOGITLAB_TRANSFORMER_X86
    if (path == KernelPath::Avx2) {
        for (; r + 4 <= count; r += 4)
            f32TileAvx2<4, 1>(rows + r * stride, stride, x, 0, 0, n, out + r);
        for (; r < count; ++r)
            f32TileAvx2<1, 1>(rows + r * stride, stride, x, 0, 0, n, out + r);
        return;
    }
#endif
    for (; r < count; ++r)
        out[r] = f32DotScalar(rows + r * stride, x, 0, n);
}

void axpyF32(float alpha, const float* x, float* y, std::int64_t n, KernelPath path)
{
#ifdef LOGITLAB_TRANSFORMER_X86
    if (path == KernelPath::Avx2) {
        axpyAvx2(alpha, x, y, n);
        return;
    }
#endif
    (void)path;
    for (std::int64_t k = 0; k < n; ++k)
        y[k] += alpha * x[k];
}

void weightedSumF32(const float* rows, std::int64_t stride, std::int64_t count, const float* weights, std::int64_t n,
                    float* out, KernelPath path)
{
#ifdef LOGITLAB_TRANSFORMER_X86
    if (path == KernelPath::Avx2) {
        weightedSumAvx2(rows, stride, count, weights, n, out);
        return;
    }
#endif
    std::fill(out, out + n, 0.0f);
    for (std::int64_t r = 0; r < count; ++r)
        axpyF32(weights[r], rows + r * stride, out, n, path);
}

std::size_t matmulScratchFloats(std::span<const MatmulTask> tasks)
{
    std::size_t most = 0;
    for (const MatmulTask& task : tasks)
        if (task.w->type != GgmlType::F32)
            most = std::max(most, static_cast<std::size_t>(kTileRows * task.w->cols));
    return most;
}

void matmulRows(const MatmulTask& task, std::int64_t batch, std::int64_t rowBegin, std::int64_t rowEnd,
                const ReductionPlan& plan, KernelPath path, float* scratch)
{
    const WeightView& w = *task.w;
    const int slices = std::clamp(plan.splitK, 1, kMaxSplitK);
    if (plan.blockKernels && batch < kDirectQuantisedBatch && detail::hasBlockDots(w.type, path)) {
        blockRows(task, batch, rowBegin, rowEnd, slices, path);
        return;
    }
    for (std::int64_t tile = rowBegin; tile < rowEnd; tile += kTileRows) {
        const std::int64_t rows = std::min(kTileRows, rowEnd - tile);
        const float* rowData = nullptr;
        if (w.type == GgmlType::F32) {
            rowData = reinterpret_cast<const float*>(w.row(tile));
        } else {
            for (std::int64_t r = 0; r < rows; ++r)
                dequantize(w.type, w.row(tile + r), scratch + r * w.cols, w.cols);
            rowData = scratch;
        }
        f32Rows(rowData, w.cols, rows, tile, task, batch, slices, path);
    }
}

void matmul(ThreadPool& pool, std::span<const MatmulTask> tasks, std::int64_t batch, const ReductionPlan& plan,
            KernelPath path, float* scratch)
{
    const std::size_t scratchFloats = matmulScratchFloats(tasks);
    // Units of whole tiles, about 32 per thread, so a descheduled thread holds little back.
    std::int64_t totalRows = 0;
    for (const MatmulTask& task : tasks)
        totalRows += task.w->rows;
    const std::int64_t unitRows = std::max<std::int64_t>(1, totalRows / (kTileRows * 32 * pool.threads())) * kTileRows;
    std::int64_t units = 0;
    for (const MatmulTask& task : tasks)
        units += (task.w->rows + unitRows - 1) / unitRows;
    pool.parallelFor(units, 1, [&](std::int64_t begin, std::int64_t end, int thread) {
        for (std::int64_t unit = begin; unit < end; ++unit) {
            std::int64_t u = unit;
            for (const MatmulTask& task : tasks) {
                const std::int64_t taskUnits = (task.w->rows + unitRows - 1) / unitRows;
                if (u < taskUnits) {
                    const std::int64_t first = u * unitRows;
                    matmulRows(task, batch, first, std::min(task.w->rows, first + unitRows), plan, path,
                               scratch + static_cast<std::size_t>(thread) * scratchFloats);
                    break;
                }
                u -= taskUnits;
            }
        }
    });
}

}  // namespace logitlab::engine::transformer
