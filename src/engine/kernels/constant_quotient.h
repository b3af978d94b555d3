// Internal: a / d correctly rounded for a divisor d fixed across many dividends, without the
// divider (the slowest unit, and the bound of the lesson's softmax loop where it divides every
// logit by T). Markstein's theorem: with y = RN(1 / d) and q = RN(a y), within an ulp of a / d,
// the residual r = a - d q is exact in one FMA and RN(q + r y) is RN(a / d). It holds while
// the residual is a normal number and nothing overflows: dividends with |a| in
// [kQuotientLow, kQuotientHigh] over divisors in [kDivisorLow, kDivisorHigh] (the quotient stays
// inside [2^-960, 2^960] and the residual, about a 2^-53, is normal). Callers check the ranges.
//
// Include only from files compiled with -ffp-contract=off.
#pragma once

#include <immintrin.h>

namespace logitlab::engine::detail {

inline constexpr double kQuotientLow = 0x1p-900;
inline constexpr double kQuotientHigh = 0x1p900;
inline constexpr double kDivisorLow = 0x1p-60;
inline constexpr double kDivisorHigh = 0x1p60;

inline bool quotientDivisorInRange(double d) { return d >= kDivisorLow && d <= kDivisorHigh; }

// RN(a / d) for four lanes, with reciprocal = RN(1 / d).
__attribute__((target("avx2,fma"))) inline __m256d quotientByConstantAvx2(__m256d a, __m256d d, __m256d reciprocal)
{
    const __m256d q = _mm256_mul_pd(a, reciprocal);
    const __m256d r = _mm256_fnmadd_pd(q, d, a);  // a - d q, exact
    return _mm256_fmadd_pd(r, reciprocal, q);
}

// The same on the low lane alone, for quotients that are not contiguous.
__attribute__((target("avx2,fma"))) inline double quotientByConstant(double a, double d, double reciprocal)
{
    const __m128d va = _mm_set_sd(a);
    const __m128d vy = _mm_set_sd(reciprocal);
    const __m128d q = _mm_mul_sd(va, vy);
    const __m128d r = _mm_fnmadd_sd(q, _mm_set_sd(d), va);  // a - d q, exact
    return _mm_cvtsd_f64(_mm_fmadd_sd(r, vy, q));
}

}  // namespace logitlab::engine::detail
