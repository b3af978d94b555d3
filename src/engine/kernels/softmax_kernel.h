// Internal: the softmax loops shared by softmax() and candidates(), templated on the storage
// type so float32 logits are widened to double element by element instead of copied.
#pragma once

#include "engine/kernels/cpu_features.h"
#include "engine/kernels/lesson_divide.h"
#include "engine/kernels/lesson_exp_sum.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <emmintrin.h>
#include <immintrin.h>
#include <limits>
#include <xmmintrin.h>

namespace logitlab::engine::detail {

// Four running maxima of SSE2 lanes, float or double: the maximum's value in one pass that the
// processor does not serialise on a compare and a branch per logit.
inline __m128 maxLanes(const float* p, std::size_t n, std::size_t& done)
{
    __m128 m0 = _mm_set1_ps(p[0]), m1 = m0, m2 = m0, m3 = m0;
    std::size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        m0 = _mm_max_ps(m0, _mm_loadu_ps(p + i));
        m1 = _mm_max_ps(m1, _mm_loadu_ps(p + i + 4));
        m2 = _mm_max_ps(m2, _mm_loadu_ps(p + i + 8));
        m3 = _mm_max_ps(m3, _mm_loadu_ps(p + i + 12));
    }
    done = i;
    return _mm_max_ps(_mm_max_ps(m0, m1), _mm_max_ps(m2, m3));
}

inline __m128d maxLanes(const double* p, std::size_t n, std::size_t& done)
{
    __m128d m0 = _mm_set1_pd(p[0]), m1 = m0, m2 = m0, m3 = m0;
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        m0 = _mm_max_pd(m0, _mm_loadu_pd(p + i));
        m1 = _mm_max_pd(m1, _mm_loadu_pd(p + i + 2));
        m2 = _mm_max_pd(m2, _mm_loadu_pd(p + i + 4));
        m3 = _mm_max_pd(m3, _mm_loadu_pd(p + i + 6));
    }
    done = i;
    return _mm_max_pd(_mm_max_pd(m0, m1), _mm_max_pd(m2, m3));
}

// The first j with p[j] == value, or n; sixteen bytes compared at a time.
inline std::size_t firstEqual(const float* p, std::size_t n, float value)
{
    const __m128 v = _mm_set1_ps(value);
    std::size_t j = 0;
    for (; j + 4 <= n; j += 4)
        if (const int hits = _mm_movemask_ps(_mm_cmpeq_ps(_mm_loadu_ps(p + j), v)); hits != 0)
            return j + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(hits)));
    for (; j < n && p[j] != value; ++j) {
    }
    return j;
}

inline std::size_t firstEqual(const double* p, std::size_t n, double value)
{
    const __m128d v = _mm_set1_pd(value);
    std::size_t j = 0;
    for (; j + 2 <= n; j += 2)
        if (const int hits = _mm_movemask_pd(_mm_cmpeq_pd(_mm_loadu_pd(p + j), v)); hits != 0)
            return j + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(hits)));
    for (; j < n && p[j] != value; ++j) {
    }
    return j;
}

// argmaxOf on AVX2 in one pass over blocks of eight registers: a block's maximum (a tree of seven
// maxima) is compared with the largest logit so far, and only a block holding a larger one (a
// few per vocabulary on real logits) updates it, one logit at a time, and becomes the block to
// search. The first block holding the final maximum is the last one that raised it, so the first
// position of the maximum is in there. Why not the SSE2 loops' maximum and then a search for its
// first position: they read the logits twice, and the maximum waits on its own chain of maxima
// (about 18 against 5 us at V = 128,256 here). Returns n when logits[0] is NaN (the SSE2 loops
// then decide, as before; NaN logits are refused on the way in).
// One AVX2 register of floats or doubles, for the one loop below.
template <class Scalar>
struct Avx2Lanes;

template <>
struct Avx2Lanes<float> {
    static constexpr std::size_t kLanes = 8;
    __attribute__((target("avx2"))) static __m256 load(const float* p) { return _mm256_loadu_ps(p); }
    __attribute__((target("avx2"))) static __m256 max(__m256 a, __m256 b) { return _mm256_max_ps(a, b); }
    __attribute__((target("avx2"))) static bool anyAbove(__m256 v, float best)
    {
        return _mm256_movemask_ps(_mm256_cmp_ps(v, _mm256_set1_ps(best), _CMP_GT_OQ)) != 0;
    }
};

template <>
struct Avx2Lanes<double> {
    static constexpr std::size_t kLanes = 4;
    __attribute__((target("avx2"))) static __m256d load(const double* p) { return _mm256_loadu_pd(p); }
    __attribute__((target("avx2"))) static __m256d max(__m256d a, __m256d b) { return _mm256_max_pd(a, b); }
    __attribute__((target("avx2"))) static bool anyAbove(__m256d v, double best)
    {
        return _mm256_movemask_pd(_mm256_cmp_pd(v, _mm256_set1_pd(best), _CMP_GT_OQ)) != 0;
    }
};

// Whether any of the eight registers from p holds a value above `best`: a tree of seven maxima.
template <class Scalar>
__attribute__((target("avx2"))) inline bool blockAbove(const Scalar* p, Scalar best)
{
    using W = Avx2Lanes<Scalar>;
    constexpr std::size_t L = W::kLanes;
    const auto a = W::max(W::load(p), W::load(p + L));
    const auto b = W::max(W::load(p + 2 * L), W::load(p + 3 * L));
    const auto c = W::max(W::load(p + 4 * L), W::load(p + 5 * L));
    const auto d = W::max(W::load(p + 6 * L), W::load(p + 7 * L));
    return W::anyAbove(W::max(W::max(a, b), W::max(c, d)), best);
}

template <class Scalar>
__attribute__((target("avx2"))) std::size_t argmaxAvx2(const Scalar* p, std::size_t n)
{
    constexpr std::size_t kBlock = 8 * Avx2Lanes<Scalar>::kLanes;
    Scalar best = p[0];
    if (!(best == best))
        return n;
    std::size_t at = 0;
    std::size_t i = 0;
    for (; i + kBlock <= n; i += kBlock) {
        if (blockAbove(p + i, best)) [[unlikely]] {
            for (std::size_t j = i; j < i + kBlock; ++j)
                best = p[j] > best ? p[j] : best;
            at = i;  // the block holds `best`; its position is found below
        }
    }
    while (!(p[at] == best))
        ++at;
    for (; i < n; ++i)
        if (p[i] > best) {
            best = p[i];
            at = i;
        }
    return at;
}

// The id of the largest logit, the first one on ties (the lesson's indexOf(Math.max(...))).
// Precondition: n > 0. NaN logits (refused on the way in) never win, as in a plain scan.
// `avx2` = false forces the SSE2 loops (tests run both).
template <class Scalar>
std::int32_t argmaxOf(const Scalar* logits, std::size_t n, bool avx2 = hasAvx2())
{
    if (avx2)
        if (const std::size_t j = argmaxAvx2(logits, n); j < n)
            return static_cast<std::int32_t>(j);
    std::size_t i = 0;
    alignas(16) Scalar lanes[16 / sizeof(Scalar)];
    if constexpr (sizeof(Scalar) == 4)
        _mm_store_ps(lanes, maxLanes(logits, n, i));
    else
        _mm_store_pd(lanes, maxLanes(logits, n, i));
    Scalar best = lanes[0];
    for (const Scalar lane : lanes)
        best = lane > best ? lane : best;
    for (; i < n; ++i)
        best = logits[i] > best ? logits[i] : best;
    // -0.0 == 0.0, so the first of equal maxima wins whatever sign the lanes kept.
    if (const std::size_t j = firstEqual(logits, n, best); j < n)
        return static_cast<std::int32_t>(j);
    // Only a NaN gets here (a lane kept it as its maximum): the plain scan's answer.
    std::size_t first = 0;
    for (std::size_t j = 1; j < n; ++j)
        if (logits[j] > logits[first])
            first = j;
    return static_cast<std::int32_t>(first);
}

// True when T > 0 is so small that max(l) / T is no longer a finite double (T = 1e-320 on logits
// of order 1): l/T - max would be inf - inf = NaN. Such a temperature is taken as its T -> 0
// limit, greedy (docs/engine.md).
inline bool scaledMaxOverflows(double maxLogit, double temperature)
{
    return temperature > 0.0 && std::isfinite(maxLogit) && !std::isfinite(maxLogit / temperature);
}

// Writes exp(l/T - max(l/T)) into out[0..n) and returns their sum, accumulated in id order:
// JavaScript's Math.exp and reduce, bit for bit (lesson_exp_sum.h).
// max(l/T) == max(l)/T exactly for T > 0 (division is monotonic), so one pass finds the max.
// When max(l)/T overflows, the limit: 1 at the argmax (lowest id), 0 elsewhere.
template <class Scalar>
double exponentiate(const Scalar* logits, std::size_t n, double temperature, double* out)
{
    const std::int32_t top = argmaxOf(logits, n);
    if (scaledMaxOverflows(static_cast<double>(logits[top]), temperature)) {
        for (std::size_t i = 0; i < n; ++i)
            out[i] = static_cast<std::size_t>(top) == i ? 1.0 : 0.0;
        return 1.0;
    }
    const double maxScaled = static_cast<double>(logits[top]) / temperature;
    return lessonExpSum(logits, n, temperature, maxScaled, out);
}

// exponentiate() for a caller that found the argmax `top` and ruled out an overflowing max
// (scaledMaxOverflows).
template <class Scalar>
double exponentiate(const Scalar* logits, std::size_t n, double temperature, std::int32_t top, double* out)
{
    return lessonExpSum(logits, n, temperature, static_cast<double>(logits[top]) / temperature, out);
}

// Turns out[] from exponentiate() into probabilities: e / sum, the IEEE quotient for each.
inline void normalise(double* values, std::size_t n, double sum) { divideBy(values, n, sum); }

}  // namespace logitlab::engine::detail
