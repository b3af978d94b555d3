#include "engine/kernels/lesson_exp_sum.h"

#include "engine/kernels/constant_quotient.h"
#include "engine/kernels/cpu_features.h"
#include "engine/kernels/fdlibm_exp_simd.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

// Compiled with -ffp-contract=off (src/engine/CMakeLists.txt): x / T - max must round twice.
//
// Why the loops are software-pipelined: one block's exps are a long chain of dependent operations
// (two divisions, the polynomial), and the id-order sum is another (one addition per term). Summed
// as soon as they are computed, each block waits for its own exps and the processor overlaps
// little. Here each iteration computes block b's exps and adds block b - 1's terms, which are
// already in memory: the two chains are independent, so the additions run under the exps.

namespace logitlab::engine::detail {

namespace {

// x / T == x * (1 / T) bit for bit when T is a power of two (1 / T is then exact, and both
// round the same real number once): T = 1, the most common temperature, needs no division.
bool exactReciprocal(double temperature)
{
    const auto bits = std::bit_cast<std::uint64_t>(temperature);
    const std::uint64_t exponent = (bits >> 52) & 0x7ff;
    return temperature > 0.0 && (bits & ((std::uint64_t{1} << 52) - 1)) == 0 && exponent != 0 && exponent != 0x7ff;
}

// How the vector loops compute l / T with the bits of a division: a multiplication by the exact
// reciprocal of a power of two; else Markstein's quotient (constant_quotient.h) where the
// processor has FMA, leaving the divider, which bounds the loop, to fdlibm's own division; else
// the division itself.
enum class Scaling { Multiply, Quotient, Divide };

Scaling scalingFor(double temperature, bool fma)
{
    if (exactReciprocal(temperature))
        return Scaling::Multiply;
    if (fma && quotientDivisorInRange(temperature))
        return Scaling::Quotient;
    return Scaling::Divide;
}

__attribute__((target("avx2,fma"))) inline __m256d scaledAvx2(__m256d l, Scaling scaling, __m256d t, __m256d inverse)
{
    switch (scaling) {
    case Scaling::Multiply:
        return _mm256_mul_pd(l, inverse);
    case Scaling::Quotient:
        return quotientByConstantAvx2(l, t, inverse);
    default:
        return _mm256_div_pd(l, t);
    }
}

// Four lanes widened to double: float logits exactly, as JavaScript's numbers would hold them.
__attribute__((target("avx2"))) inline __m256d load4(const double* p) { return _mm256_loadu_pd(p); }

__attribute__((target("avx2"))) inline __m256d load4(const float* p) { return _mm256_cvtps_pd(_mm_loadu_ps(p)); }

inline __m128d load2(const double* p) { return _mm_loadu_pd(p); }

inline __m128d load2(const float* p)
{
    return _mm_cvtps_pd(_mm_castpd_ps(_mm_load_sd(reinterpret_cast<const double*>(p))));
}

// sum + e[0] + e[1] + ... one dependent addition at a time.
inline double addInOrder(double sum, const double* e, std::size_t n)
{
    for (std::size_t i = 0; i < n; ++i)
        sum += e[i];
    return sum;
}

// The sample's ids among [from, to), whose exps are written: copied into `sample`, if any.
inline void copySample(const double* out, std::size_t from, std::size_t to, double* sample)
{
    if (sample == nullptr)
        return;
    for (std::size_t i = (from + kExpSampleStride - 1) / kExpSampleStride * kExpSampleStride; i < to;
         i += kExpSampleStride)
        sample[i / kExpSampleStride] = out[i];
}

template <class Scalar>
double tail(const Scalar* logits, std::size_t from, std::size_t n, double temperature, double maxScaled, double* out,
            double sum, double* sample)
{
    for (std::size_t i = from; i < n; ++i)
        out[i] = fdlibmExp(static_cast<double>(logits[i]) / temperature - maxScaled);
    copySample(out, from, n, sample);
    return addInOrder(sum, out + from, n - from);
}

// The AVX2 loop works on chunks of kChunkVectors vectors in four passes through L1-resident
// scratch. One exp is a dependent chain of about 100 cycles; a chunk's pass has a short chain per
// vector and many independent vectors, so the processor overlaps them (a whole exp per vector
// leaves the scheduler full of operations waiting on one chain). fdlibm's quotient is split over
// two passes for that reason: in one pass, r^2, four Horner steps, c and the division made one
// chain of about 50 cycles a vector, and only about four vectors fitted in the FP scheduler.
// Two of the passes, the first and the division's, also add the previous chunk's terms to the
// id-order sum, two a vector: that chain (3 cycles a term) runs under the exps. Where the terms
// go changes the time by a few percent (docs/benchmarks.md, "Thirteenth session").
constexpr std::size_t kChunkVectors = 16;
constexpr std::size_t kChunk = 4 * kChunkVectors;

// 2^k for integer-valued doubles k in [-1022, 1023]: 2^52 + 1023 + k is exact, and its low
// eleven bits are the biased exponent.
__attribute__((target("avx2"))) inline __m256d twoToThe(__m256d t)
{
    const __m256d biased = _mm256_add_pd(t, _mm256_set1_pd(4503599627371519.0));  // 2^52 + 1023
    return _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_castpd_si256(biased), 52));
}

struct ChunkScratch {
    alignas(32) double hi[kChunk];
    alignas(32) double lo[kChunk];
    alignas(32) double t[kChunk];
    alignas(32) double quotient[kChunk];
    alignas(32) double r[kChunk];
    alignas(32) double rr[kChunk];
    alignas(32) double head[kChunk];
};

// Adds `count` terms of the previous chunk from term `from`, if any, to the id-order sum.
inline void addTerms(double& sum, const double* previous, std::size_t from, std::size_t count)
{
    if (previous != nullptr)
        sum = addInOrder(sum, previous + from, count);
}

// Which chunks are plain (fdlibm_exp_simd.h: every lane's x = l / T - max in -708 <= x <= -1.5 ln2,
// where fdlibm's middle band ends at the double whose high word is 0x3FF0A2B2) is read off the
// logits, not the x lanes: x rounds monotonically in l (a division, or its bits, and a
// subtraction, each correctly rounded), so the band is a range of logits [low, high], found once a
// call, and a chunk is plain when its smallest and largest logits lie in it. A chunk's range costs
// two operations per eight float lanes, against two per four x lanes and a reduction of their
// lanes (Zen 3: 172 against 178 us a pass; a loop over the chunk's logits before its first pass,
// rather than within it, cost 182). Double logits also keep to Markstein's range,
// |l| <= kQuotientHigh (smaller |l| than kQuotientLow are exact too on a plain chunk: |l / T| <
// 2^-840 then vanishes in l / T - max, as max >= 1.5 ln2 there, and both quotients are that
// small); floats always do. Empty when no logit's x was found in the band: every chunk then takes
// the full path.
template <class Scalar>
struct PlainLogits {
    Scalar low = std::numeric_limits<Scalar>::infinity();
    Scalar high = -std::numeric_limits<Scalar>::infinity();
};

// A logit b near the one whose x is xBound with x(b) >= xBound (upward) or x(b) <= xBound, found
// by steps from the estimate (xBound + max) T, which is a few ulps off; nullopt after 64 steps.
// A bound a step inside the exact one only sends the chunks with a logit in that step down the
// full path, which gives the same bits.
template <class Scalar>
std::optional<Scalar> logitBound(double xBound, bool upward, double temperature, double maxScaled)
{
    constexpr double kLargest = std::numeric_limits<Scalar>::max();
    const auto holds = [&](Scalar l) {
        const double x = static_cast<double>(l) / temperature - maxScaled;  // the lesson's operations
        return upward ? x >= xBound : x <= xBound;
    };
    const double estimate = (xBound + maxScaled) * temperature;
    if (std::isnan(estimate))
        return std::nullopt;
    auto bound = static_cast<Scalar>(std::clamp(estimate, -kLargest, kLargest));
    double step = std::max(std::abs(static_cast<double>(bound)) * 0x1p-30, 0x1p-60);
    for (int tries = 0; tries < 64; ++tries, step *= 2.0) {
        if (holds(bound))
            return bound;
        bound =
            static_cast<Scalar>(std::clamp(static_cast<double>(bound) + (upward ? step : -step), -kLargest, kLargest));
    }
    return std::nullopt;
}

template <class Scalar>
PlainLogits<Scalar> plainLogits(double temperature, double maxScaled)
{
    const std::optional<Scalar> low = logitBound<Scalar>(-708.0, true, temperature, maxScaled);
    const std::optional<Scalar> high = logitBound<Scalar>(-fdlibm::kThreeHalvesLn2Band, false, temperature, maxScaled);
    if (!low || !high)
        return {};
    PlainLogits<Scalar> plain{*low, *high};
    if constexpr (std::is_same_v<Scalar, double>) {
        plain.low = std::max(plain.low, -kQuotientHigh);
        plain.high = std::min(plain.high, kQuotientHigh);
    }
    return plain.low <= plain.high ? plain : PlainLogits<Scalar>{};
}

// The smallest and largest of a chunk's logits, eight at a time (four for doubles), and whether
// they lie in [low, high]. A NaN logit can drop out of the running minimum and maximum (min and
// max return their second operand when one is NaN), so a chunk holding one may pass as plain: its
// NaN lanes' exps are still NaN (every step of the plain path keeps a NaN, and 2^k's bits times
// NaN is NaN), and so is the sum, as in the lesson. (NaN logits are refused on the way in; the
// payload is not the scalar's.)
template <class Scalar>
struct LogitRange;

template <>
struct LogitRange<float> {
    __m256 low, high;
    __attribute__((target("avx2"))) LogitRange()
        : low(_mm256_set1_ps(__builtin_inff())), high(_mm256_set1_ps(-__builtin_inff()))
    {
    }
    __attribute__((target("avx2"))) void addEight(const float* p)
    {
        const __m256 l = _mm256_loadu_ps(p);
        low = _mm256_min_ps(low, l);
        high = _mm256_max_ps(high, l);
    }
    __attribute__((target("avx2"))) bool within(const PlainLogits<float>& plain) const
    {
        const __m256 in = _mm256_and_ps(_mm256_cmp_ps(low, _mm256_set1_ps(plain.low), _CMP_GE_OQ),
                                        _mm256_cmp_ps(high, _mm256_set1_ps(plain.high), _CMP_LE_OQ));
        return _mm256_movemask_ps(in) == 0xff;
    }
};

template <>
struct LogitRange<double> {
    __m256d low, high;
    __attribute__((target("avx2"))) LogitRange()
        : low(_mm256_set1_pd(__builtin_inf())), high(_mm256_set1_pd(-__builtin_inf()))
    {
    }
    __attribute__((target("avx2"))) void addEight(const double* p)
    {
        const __m256d a = _mm256_loadu_pd(p);
        const __m256d b = _mm256_loadu_pd(p + 4);
        low = _mm256_min_pd(_mm256_min_pd(low, a), b);
        high = _mm256_max_pd(_mm256_max_pd(high, a), b);
    }
    __attribute__((target("avx2"))) bool within(const PlainLogits<double>& plain) const
    {
        const __m256d in = _mm256_and_pd(_mm256_cmp_pd(low, _mm256_set1_pd(plain.low), _CMP_GE_OQ),
                                         _mm256_cmp_pd(high, _mm256_set1_pd(plain.high), _CMP_LE_OQ));
        return _mm256_movemask_pd(in) == 0xf;
    }
};

// fdlibm's k = (int)(x / ln2 - 0.5) for plain lanes (negative, -708 <= x <= -1.5 ln2), kept as
// a double (exact: |k| <= 1022), and hi = x - k ln2hi. With Fma, each takes one FMA instead of a
// multiplication and an addition, and gives the same numbers:
// - k: z = x / ln2 is in [-1022, -1.49], where an ulp u is at most 2^-43 and 0.5 is an even
//   multiple of u. Where z and z - 0.5 lie in one binade, RN(z) - 0.5 is exact and on the grid of
//   RN(z - 0.5), so RN(RN(z) - 0.5) = RN(z - 0.5). Where z - 0.5 crosses into the next binade
//   (z in (-2^j, -2^j + 0.5)), both results lie in [-2^j - 0.5, -2^j] (rounding is monotone and
//   both ends are numbers), where every value truncates to -2^j.
// - hi: k ln2hi is exact (ln2hi has 32 significant bits, k at most 10), so the FMA's one rounding
//   is the subtraction's.
template <bool Fma>
__attribute__((target("avx2,fma"))) inline void reducePlain(__m256d x, __m256d& k, __m256d& hi, __m256d& lo)
{
    using namespace fdlibm;
    constexpr int kTruncate = _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC;
    if constexpr (Fma) {
        k = _mm256_round_pd(_mm256_fmadd_pd(_mm256_set1_pd(kInvLn2), x, _mm256_set1_pd(-0.5)), kTruncate);
        hi = _mm256_fnmadd_pd(k, _mm256_set1_pd(kLn2Hi), x);
        lo = _mm256_mul_pd(k, _mm256_set1_pd(kLn2Lo));
    } else {
        k = _mm256_round_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(kInvLn2), x), _mm256_set1_pd(-0.5)), kTruncate);
        reduceAvx2(x, k, hi, lo);
    }
}

// One chunk of plain lanes: fdlibm::expAvx2Plain's operations, in passes (reducePlain,
// quotientHeadAvx2, quotientTailAvx2, reducedResultAvx2). Returns false, having written nothing
// but the id-order sum's terms, when some logit lies outside `plain`.
// "fma" is for Markstein's quotient and reducePlain<true>, which run only where hasAvx2Fma(); with
// -ffp-contract=off the compiler adds no FMA of its own, so the function runs on any AVX2
// processor.
template <bool Fma, class Scalar>
__attribute__((target("avx2,fma"))) bool
plainChunkAvx2(const Scalar* logits, const PlainLogits<Scalar>& plain, double temperature, Scaling scaling,
               double maxScaled, double* out, ChunkScratch& s, double& sum, const double* previous)
{
    using namespace fdlibm;
    const __m256d t = _mm256_set1_pd(temperature);
    const __m256d inverse = _mm256_set1_pd(1.0 / temperature);
    const __m256d m = _mm256_set1_pd(maxScaled);
    LogitRange<Scalar> range;
    for (std::size_t v = 0; v < kChunkVectors; ++v) {
        if (v % 2 == 0)
            range.addEight(logits + 4 * v);
        const __m256d x = _mm256_sub_pd(scaledAvx2(load4(logits + 4 * v), scaling, t, inverse), m);
        addTerms(sum, previous, 2 * v, 2);
        __m256d k, hi, lo;
        reducePlain<Fma>(x, k, hi, lo);
        _mm256_store_pd(s.t + 4 * v, k);
        _mm256_store_pd(s.hi + 4 * v, hi);
        _mm256_store_pd(s.lo + 4 * v, lo);
    }
    if (!range.within(plain)) {
        addTerms(sum, previous, kChunk / 2, kChunk / 2);  // the rest of them: the full chunk adds none
        return false;
    }
    for (std::size_t v = 0; v < kChunkVectors; ++v) {
        __m256d r, rr;
        _mm256_store_pd(s.head + 4 * v,
                        quotientHeadAvx2(_mm256_load_pd(s.hi + 4 * v), _mm256_load_pd(s.lo + 4 * v), r, rr));
        _mm256_store_pd(s.r + 4 * v, r);
        _mm256_store_pd(s.rr + 4 * v, rr);
    }
    for (std::size_t v = 0; v < kChunkVectors; ++v) {
        _mm256_store_pd(s.quotient + 4 * v, quotientTailAvx2(_mm256_load_pd(s.r + 4 * v), _mm256_load_pd(s.rr + 4 * v),
                                                             _mm256_load_pd(s.head + 4 * v)));
        addTerms(sum, previous, kChunk / 2 + 2 * v, 2);
    }
    for (std::size_t v = 0; v < kChunkVectors; ++v) {
        const __m256d y = reducedResultAvx2(_mm256_load_pd(s.hi + 4 * v), _mm256_load_pd(s.lo + 4 * v),
                                            _mm256_load_pd(s.quotient + 4 * v));
        _mm256_storeu_pd(out + 4 * v, _mm256_mul_pd(y, twoToThe(_mm256_load_pd(s.t + 4 * v))));
    }
    return true;
}

// A chunk with some lane that is not plain: fdlibm's every band on each vector.
template <class Scalar>
__attribute__((target("avx2"))) void fullChunkAvx2(const Scalar* logits, double temperature, Scaling scaling,
                                                   double maxScaled, double* out)
{
    const __m256d t = _mm256_set1_pd(temperature);
    const __m256d inverse = _mm256_set1_pd(1.0 / temperature);
    const __m256d m = _mm256_set1_pd(maxScaled);
    for (std::size_t v = 0; v < kChunkVectors; ++v) {
        const __m256d l = load4(logits + 4 * v);
        // Divided: this chunk's logits may lie outside the quotient's range.
        const __m256d x =
            _mm256_sub_pd(scaling == Scaling::Multiply ? _mm256_mul_pd(l, inverse) : _mm256_div_pd(l, t), m);
        _mm256_storeu_pd(out + 4 * v, fdlibm::expAvx2Full(x));
    }
}

template <bool Fma, class Scalar>
__attribute__((target("avx2,fma"))) double expSumAvx2(const Scalar* logits, std::size_t n, double temperature,
                                                      double maxScaled, double* out, double* sample)
{
    const Scaling scaling = scalingFor(temperature, Fma);
    const PlainLogits<Scalar> plain = plainLogits<Scalar>(temperature, maxScaled);
    ChunkScratch scratch;
    double sum = 0.0;
    const double* previous = nullptr;  // the last chunk's exps, not yet summed
    std::size_t i = 0;
    for (; i + kChunk <= n; i += kChunk) {
        if (!plainChunkAvx2<Fma>(logits + i, plain, temperature, scaling, maxScaled, out + i, scratch, sum, previous))
            fullChunkAvx2(logits + i, temperature, scaling, maxScaled, out + i);
        copySample(out, i, i + kChunk, sample);
        previous = out + i;
    }
    addTerms(sum, previous, 0, kChunk);
    return tail(logits, i, n, temperature, maxScaled, out, sum, sample);
}

constexpr std::size_t kSse2Vectors = 4;
constexpr std::size_t kSse2Block = 2 * kSse2Vectors;

template <class Scalar>
double expSumSse2(const Scalar* logits, std::size_t n, double temperature, double maxScaled, double* out,
                  double* sample)
{
    const __m128d t = _mm_set1_pd(temperature);
    const __m128d inverse = _mm_set1_pd(1.0 / temperature);
    const bool multiply = exactReciprocal(temperature);
    const __m128d m = _mm_set1_pd(maxScaled);
    double sum = 0.0;
    std::size_t i = 0;
    for (; i + kSse2Block <= n; i += kSse2Block) {
        for (std::size_t v = 0; v < kSse2Vectors; ++v) {
            const __m128d l = load2(logits + i + 2 * v);
            const __m128d x = _mm_sub_pd(multiply ? _mm_mul_pd(l, inverse) : _mm_div_pd(l, t), m);
            _mm_storeu_pd(out + i + 2 * v, fdlibm::expSse2v(x));
        }
        copySample(out, i, i + kSse2Block, sample);
        if (i != 0)
            sum = addInOrder(sum, out + i - kSse2Block, kSse2Block);
    }
    if (i != 0)
        sum = addInOrder(sum, out + i - kSse2Block, kSse2Block);
    return tail(logits, i, n, temperature, maxScaled, out, sum, sample);
}

template <class Scalar>
double expSum(const Scalar* logits, std::size_t n, double temperature, double maxScaled, double* out, ExpPath path,
              double* sample)
{
    if (path == ExpPath::Auto)
        path = fdlibm::hasAvx2() ? ExpPath::Avx2 : ExpPath::Sse2;
    switch (path) {
    case ExpPath::Avx2:
        if (hasAvx2Fma())
            return expSumAvx2<true>(logits, n, temperature, maxScaled, out, sample);
        [[fallthrough]];
    case ExpPath::Avx2WithoutFma:
        return expSumAvx2<false>(logits, n, temperature, maxScaled, out, sample);
    case ExpPath::Sse2:
        return expSumSse2(logits, n, temperature, maxScaled, out, sample);
    default:
        return tail(logits, 0, n, temperature, maxScaled, out, 0.0, sample);
    }
}

}  // namespace

double lessonExpSum(const double* logits, std::size_t n, double temperature, double maxScaled, double* out,
                    ExpPath path, double* sample)
{
    return expSum(logits, n, temperature, maxScaled, out, path, sample);
}

double lessonExpSum(const float* logits, std::size_t n, double temperature, double maxScaled, double* out, ExpPath path,
                    double* sample)
{
    return expSum(logits, n, temperature, maxScaled, out, path, sample);
}

}  // namespace logitlab::engine::detail
