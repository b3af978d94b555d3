// Internal: fdlibm's exp (fdlibm_exp.h) on SSE2 and AVX2 registers, for fdlibm_exp.cpp and the
// lesson's softmax loop. Every lane performs the scalar fdlibmExp()'s operations in its order, so
// it returns the same bits: the reduction's three bands (|x| <= 0.5 ln2: k = 0; below 1.5 ln2:
// k = +-1; else k = (int)(x / ln2 +- 0.5)) become selects of k, the tiny band |x| < 2^-28 a select
// of 1 + x, the denormal scaling and the underflow to 0 selects of the scale. Lanes needing the
// rest (NaN, +inf, x > 709: overflow or k = 1024, and exp(1), which V8 special-cases) are
// recomputed by the scalar.
//
// Include only from files compiled with -ffp-contract=off (an FMA would change the bits).
#pragma once

#include "engine/kernels/cpu_features.h"
#include "engine/kernels/fdlibm_exp.h"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <emmintrin.h>
#include <immintrin.h>

namespace logitlab::engine::fdlibm {

// fdlibm e_exp.c's constants (with their bit patterns in the original's comments).
inline constexpr double kOverflowThreshold = 7.09782712893383973096e+02;    // 0x40862E42 FEFA39EF
inline constexpr double kUnderflowThreshold = -7.45133219101941108420e+02;  // 0xC0874910 D52D3051
inline constexpr double kLn2Hi = 6.93147180369123816490e-01;                // 0x3FE62E42 FEE00000
inline constexpr double kLn2Lo = 1.90821492927058770002e-10;                // 0x3DEA39EF 35793C76
inline constexpr double kInvLn2 = 1.44269504088896338700e+00;               // 0x3FF71547 652B82FE
inline constexpr double kP1 = 1.66666666666666019037e-01;                   // 0x3FC55555 5555553E
inline constexpr double kP2 = -2.77777777770155933842e-03;                  // 0xBF66C16C 16BEBD93
inline constexpr double kP3 = 6.61375632143793436117e-05;                   // 0x3F11566A AF25DE2C
inline constexpr double kP4 = -1.65339022054652515390e-06;                  // 0xBEBBBD41 C5D26BF1
inline constexpr double kP5 = 4.13813679705723846039e-08;                   // 0x3E663769 72BEA4D0
inline constexpr double kTwoM1000 = 9.33263618503218878990e-302;            // 2^-1000
inline constexpr double kTwo1023 = 8.988465674311579539e307;                // 2^1023
inline constexpr double kE = 2.718281828459045;                             // 0x4005BF0A 8B145769

// The band limits on |x|, as the doubles whose high words fdlibm compares against.
inline constexpr double kHalfLn2Band = std::bit_cast<double>(std::uint64_t{0x3fd62e43} << 32);  // hx > 0x3fd62e42
inline constexpr double kThreeHalvesLn2Band =
    std::bit_cast<double>(std::uint64_t{0x3FF0A2B2} << 32);                                  // hx < 0x3FF0A2B2
inline constexpr double kTinyBand = std::bit_cast<double>(std::uint64_t{0x3e300000} << 32);  // hx < 0x3e300000
// Above this the scalar decides (overflow, k = 1024); below it every k is <= 1023.
inline constexpr double kVectorMax = 709.0;

using detail::hasAvx2;

// ---- SSE2: two lanes ----

inline __m128d select2(__m128d mask, __m128d a, __m128d b)  // mask ? a : b
{
    return _mm_or_pd(_mm_and_pd(mask, a), _mm_andnot_pd(mask, b));
}

inline __m128d expSse2v(__m128d x)
{
    const __m128d signMask = _mm_set1_pd(-0.0);
    const __m128d sign = _mm_and_pd(x, signMask);
    const __m128d ax = _mm_andnot_pd(signMask, x);

    // k: the general formula, then +-1 in the middle band and 0 in the low band.
    const __m128d halfSigned = _mm_or_pd(_mm_set1_pd(0.5), sign);
    __m128d t = _mm_cvtepi32_pd(_mm_cvttpd_epi32(_mm_add_pd(_mm_mul_pd(_mm_set1_pd(kInvLn2), x), halfSigned)));
    t = select2(_mm_cmplt_pd(ax, _mm_set1_pd(kThreeHalvesLn2Band)), _mm_or_pd(_mm_set1_pd(1.0), sign), t);
    t = select2(_mm_cmplt_pd(ax, _mm_set1_pd(kHalfLn2Band)), _mm_setzero_pd(), t);

    const __m128d hi = _mm_sub_pd(x, _mm_mul_pd(t, _mm_set1_pd(kLn2Hi)));
    const __m128d lo = _mm_mul_pd(t, _mm_set1_pd(kLn2Lo));
    const __m128d r = _mm_sub_pd(hi, lo);

    const __m128d rr = _mm_mul_pd(r, r);
    __m128d poly = _mm_add_pd(_mm_set1_pd(kP4), _mm_mul_pd(rr, _mm_set1_pd(kP5)));
    poly = _mm_add_pd(_mm_set1_pd(kP3), _mm_mul_pd(rr, poly));
    poly = _mm_add_pd(_mm_set1_pd(kP2), _mm_mul_pd(rr, poly));
    poly = _mm_add_pd(_mm_set1_pd(kP1), _mm_mul_pd(rr, poly));
    const __m128d c = _mm_sub_pd(r, _mm_mul_pd(rr, poly));
    const __m128d quotient = _mm_div_pd(_mm_mul_pd(r, c), _mm_sub_pd(_mm_set1_pd(2.0), c));
    const __m128d y = _mm_sub_pd(_mm_set1_pd(1.0), _mm_sub_pd(_mm_sub_pd(lo, quotient), hi));

    // 2^k, or 2^(k + 1000) then times 2^-1000 for a denormal result (k < -1021).
    __m128i k = _mm_cvtpd_epi32(t);  // t is an integer: exact
    const __m128i denormal = _mm_cmplt_epi32(k, _mm_set1_epi32(-1021));
    k = _mm_add_epi32(k, _mm_and_si128(denormal, _mm_set1_epi32(1000)));
    k = _mm_add_epi32(k, _mm_set1_epi32(1023));
    const __m128d twopk = _mm_castsi128_pd(_mm_slli_epi64(_mm_unpacklo_epi32(k, _mm_setzero_si128()), 52));
    // Times 2^-1000 where the result is denormal, times 1 (exact) elsewhere: multiplying every
    // lane by 2^-1000 and selecting would create denormals, which cost a microcode assist each.
    const __m128d denormalMask = _mm_castsi128_pd(_mm_unpacklo_epi32(denormal, denormal));
    const __m128d scale = select2(denormalMask, _mm_set1_pd(kTwoM1000), _mm_set1_pd(1.0));
    __m128d result = _mm_mul_pd(_mm_mul_pd(y, twopk), scale);

    result = select2(_mm_cmplt_pd(ax, _mm_set1_pd(kTinyBand)), _mm_add_pd(_mm_set1_pd(1.0), x), result);
    result = _mm_andnot_pd(_mm_cmplt_pd(x, _mm_set1_pd(kUnderflowThreshold)), result);

    const __m128d scalar = _mm_or_pd(_mm_cmpnle_pd(x, _mm_set1_pd(kVectorMax)), _mm_cmpeq_pd(x, _mm_set1_pd(1.0)));
    if (_mm_movemask_pd(scalar) != 0) [[unlikely]] {
        alignas(16) double in[2];
        alignas(16) double out[2];
        _mm_store_pd(in, x);
        _mm_store_pd(out, result);
        const int lanes = _mm_movemask_pd(scalar);
        for (int i = 0; i < 2; ++i)
            if (lanes & (1 << i))
                out[i] = fdlibmExp(in[i]);
        result = _mm_load_pd(out);
    }
    return result;
}

inline void expSse2(const double* in, double* out) { _mm_storeu_pd(out, expSse2v(_mm_loadu_pd(in))); }

// ---- AVX2: four lanes (callers check hasAvx2()) ----

// x = k ln2 + r with ln2 = hi + lo, then fdlibm's y = 1 - ((lo - r c / (2 - c)) - hi) for
// t = k as a double: the part every lane of both AVX2 paths computes alike, in three pieces so
// the lesson's softmax loop (lesson_exp_sum.cpp) can run them as separate passes over a chunk.

// hi = x - t ln2hi and lo = t ln2lo.
__attribute__((target("avx2"))) inline void reduceAvx2(__m256d x, __m256d t, __m256d& hi, __m256d& lo)
{
    hi = _mm256_sub_pd(x, _mm256_mul_pd(t, _mm256_set1_pd(kLn2Hi)));
    lo = _mm256_mul_pd(t, _mm256_set1_pd(kLn2Lo));
}

// r c / (2 - c) for r = hi - lo, with c = r - r^2 (P1 + r^2 (P2 + r^2 (P3 + r^2 (P4 + r^2 P5)))),
// in two halves the lesson's softmax loop runs as separate passes: the first returns r, r^2 and
// P3 + r^2 (P4 + r^2 P5), the second finishes from them.
__attribute__((target("avx2"))) inline __m256d quotientHeadAvx2(__m256d hi, __m256d lo, __m256d& r, __m256d& rr)
{
    r = _mm256_sub_pd(hi, lo);
    rr = _mm256_mul_pd(r, r);
    const __m256d poly = _mm256_add_pd(_mm256_set1_pd(kP4), _mm256_mul_pd(rr, _mm256_set1_pd(kP5)));
    return _mm256_add_pd(_mm256_set1_pd(kP3), _mm256_mul_pd(rr, poly));
}

__attribute__((target("avx2"))) inline __m256d quotientTailAvx2(__m256d r, __m256d rr, __m256d head)
{
    __m256d poly = _mm256_add_pd(_mm256_set1_pd(kP2), _mm256_mul_pd(rr, head));
    poly = _mm256_add_pd(_mm256_set1_pd(kP1), _mm256_mul_pd(rr, poly));
    const __m256d c = _mm256_sub_pd(r, _mm256_mul_pd(rr, poly));
    return _mm256_div_pd(_mm256_mul_pd(r, c), _mm256_sub_pd(_mm256_set1_pd(2.0), c));
}

__attribute__((target("avx2"))) inline __m256d quotientAvx2(__m256d hi, __m256d lo)
{
    __m256d r, rr;
    const __m256d head = quotientHeadAvx2(hi, lo, r, rr);
    return quotientTailAvx2(r, rr, head);
}

// y = 1 - ((lo - quotient) - hi).
__attribute__((target("avx2"))) inline __m256d reducedResultAvx2(__m256d hi, __m256d lo, __m256d quotient)
{
    return _mm256_sub_pd(_mm256_set1_pd(1.0), _mm256_sub_pd(_mm256_sub_pd(lo, quotient), hi));
}

__attribute__((target("avx2"))) inline __m256d reducedExpAvx2(__m256d x, __m256d t)
{
    __m256d hi, lo;
    reduceAvx2(x, t, hi, lo);
    return reducedResultAvx2(hi, lo, quotientAvx2(hi, lo));
}

// The lanes' common case: |x| beyond 1.5 ln2 and a normal result (-708 <= x <= 709, so
// -1021 <= k <= 1023). Then the band selects, the denormal scaling and the scalar check are no-ops
// and only the general reduction and 2^k remain: the same operations as the full path.
__attribute__((target("avx2"))) inline __m256d expAvx2Plain(__m256d x)
{
    const __m256d halfSigned = _mm256_or_pd(_mm256_set1_pd(0.5), _mm256_and_pd(x, _mm256_set1_pd(-0.0)));
    const __m128i k = _mm256_cvttpd_epi32(_mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(kInvLn2), x), halfSigned));
    const __m256d y = reducedExpAvx2(x, _mm256_cvtepi32_pd(k));
    const __m256d twopk =
        _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_cvtepu32_epi64(_mm_add_epi32(k, _mm_set1_epi32(1023))), 52));
    return _mm256_mul_pd(y, twopk);
}

__attribute__((target("avx2"))) inline bool allPlain(__m256d x)
{
    const __m256d ax = _mm256_andnot_pd(_mm256_set1_pd(-0.0), x);
    const __m256d plain = _mm256_and_pd(_mm256_cmp_pd(ax, _mm256_set1_pd(kThreeHalvesLn2Band), _CMP_GE_OQ),
                                        _mm256_and_pd(_mm256_cmp_pd(x, _mm256_set1_pd(-708.0), _CMP_GE_OQ),
                                                      _mm256_cmp_pd(x, _mm256_set1_pd(kVectorMax), _CMP_LE_OQ)));
    return _mm256_movemask_pd(plain) == 0xf;
}

__attribute__((target("avx2"))) inline __m256d expAvx2Full(__m256d x)
{
    const __m256d signMask = _mm256_set1_pd(-0.0);
    const __m256d sign = _mm256_and_pd(x, signMask);
    const __m256d ax = _mm256_andnot_pd(signMask, x);

    const __m256d halfSigned = _mm256_or_pd(_mm256_set1_pd(0.5), sign);
    __m256d t =
        _mm256_cvtepi32_pd(_mm256_cvttpd_epi32(_mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(kInvLn2), x), halfSigned)));
    t = _mm256_blendv_pd(t, _mm256_or_pd(_mm256_set1_pd(1.0), sign),
                         _mm256_cmp_pd(ax, _mm256_set1_pd(kThreeHalvesLn2Band), _CMP_LT_OQ));
    t = _mm256_blendv_pd(t, _mm256_setzero_pd(), _mm256_cmp_pd(ax, _mm256_set1_pd(kHalfLn2Band), _CMP_LT_OQ));
    const __m256d y = reducedExpAvx2(x, t);

    __m128i k = _mm256_cvtpd_epi32(t);
    const __m128i denormal = _mm_cmplt_epi32(k, _mm_set1_epi32(-1021));
    k = _mm_add_epi32(k, _mm_and_si128(denormal, _mm_set1_epi32(1000)));
    k = _mm_add_epi32(k, _mm_set1_epi32(1023));
    const __m256d twopk = _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_cvtepu32_epi64(k), 52));
    const __m256d denormalMask = _mm256_castsi256_pd(_mm256_cvtepi32_epi64(denormal));
    const __m256d scale = _mm256_blendv_pd(_mm256_set1_pd(1.0), _mm256_set1_pd(kTwoM1000), denormalMask);
    __m256d result = _mm256_mul_pd(_mm256_mul_pd(y, twopk), scale);

    result = _mm256_blendv_pd(result, _mm256_add_pd(_mm256_set1_pd(1.0), x),
                              _mm256_cmp_pd(ax, _mm256_set1_pd(kTinyBand), _CMP_LT_OQ));
    result = _mm256_andnot_pd(_mm256_cmp_pd(x, _mm256_set1_pd(kUnderflowThreshold), _CMP_LT_OQ), result);

    const __m256d scalar = _mm256_or_pd(_mm256_cmp_pd(x, _mm256_set1_pd(kVectorMax), _CMP_NLE_UQ),
                                        _mm256_cmp_pd(x, _mm256_set1_pd(1.0), _CMP_EQ_OQ));
    if (_mm256_movemask_pd(scalar) != 0) [[unlikely]] {
        alignas(32) double in[4];
        alignas(32) double out[4];
        _mm256_store_pd(in, x);
        _mm256_store_pd(out, result);
        const int lanes = _mm256_movemask_pd(scalar);
        for (int i = 0; i < 4; ++i)
            if (lanes & (1 << i))
                out[i] = fdlibmExp(in[i]);
        result = _mm256_load_pd(out);
    }
    return result;
}

__attribute__((target("avx2"))) inline __m256d expAvx2v(__m256d x)
{
    return allPlain(x) ? expAvx2Plain(x) : expAvx2Full(x);
}

__attribute__((target("avx2"))) inline void expAvx2(const double* in, double* out)
{
    _mm256_storeu_pd(out, expAvx2v(_mm256_loadu_pd(in)));
}

}  // namespace logitlab::engine::fdlibm
