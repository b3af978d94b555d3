#include "lesson_exp_sum.h"

#include "fdlibm_exp_simd.h"

// Compiled with -ffp-contract=off (src/engine/CMakeLists.txt): x / T - max must round twice.

namespace logitlab::engine::detail {

namespace {

// Four lanes widened to double: float logits exactly, as JavaScript's numbers would hold them.
__attribute__((target("avx2"))) inline __m256d load4(const double* p)
{
    return _mm256_loadu_pd(p);
}

__attribute__((target("avx2"))) inline __m256d load4(const float* p)
{
    return _mm256_cvtps_pd(_mm_loadu_ps(p));
}

inline __m128d load2(const double* p)
{
    return _mm_loadu_pd(p);
}

inline __m128d load2(const float* p)
{
    return _mm_cvtps_pd(_mm_castpd_ps(_mm_load_sd(reinterpret_cast<const double*>(p))));
}

template <class Scalar>
double tail(const Scalar* logits, std::size_t from, std::size_t n, double temperature, double maxScaled, double* out,
            double sum)
{
    for (std::size_t i = from; i < n; ++i) {
        out[i] = fdlibmExp(static_cast<double>(logits[i]) / temperature - maxScaled);
        sum += out[i];
    }
    return sum;
}

template <class Scalar>
__attribute__((target("avx2"))) double expSumAvx2(const Scalar* logits, std::size_t n, double temperature,
                                                  double maxScaled, double* out)
{
    const __m256d t = _mm256_set1_pd(temperature);
    const __m256d m = _mm256_set1_pd(maxScaled);
    double sum = 0.0;
    std::size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        const __m256d e = fdlibm::expAvx2v(_mm256_sub_pd(_mm256_div_pd(load4(logits + i), t), m));
        _mm256_storeu_pd(out + i, e);
        // One dependent addition per term, in id order: the lesson's reduce.
        const __m128d low = _mm256_castpd256_pd128(e);
        const __m128d high = _mm256_extractf128_pd(e, 1);
        sum += _mm_cvtsd_f64(low);
        sum += _mm_cvtsd_f64(_mm_unpackhi_pd(low, low));
        sum += _mm_cvtsd_f64(high);
        sum += _mm_cvtsd_f64(_mm_unpackhi_pd(high, high));
    }
    return tail(logits, i, n, temperature, maxScaled, out, sum);
}

template <class Scalar>
double expSumSse2(const Scalar* logits, std::size_t n, double temperature, double maxScaled, double* out)
{
    const __m128d t = _mm_set1_pd(temperature);
    const __m128d m = _mm_set1_pd(maxScaled);
    double sum = 0.0;
    std::size_t i = 0;
    for (; i + 2 <= n; i += 2) {
        const __m128d e = fdlibm::expSse2v(_mm_sub_pd(_mm_div_pd(load2(logits + i), t), m));
        _mm_storeu_pd(out + i, e);
        sum += _mm_cvtsd_f64(e);
        sum += _mm_cvtsd_f64(_mm_unpackhi_pd(e, e));
    }
    return tail(logits, i, n, temperature, maxScaled, out, sum);
}

template <class Scalar>
double expSum(const Scalar* logits, std::size_t n, double temperature, double maxScaled, double* out, ExpPath path)
{
    if (path == ExpPath::Auto)
        path = fdlibm::hasAvx2() ? ExpPath::Avx2 : ExpPath::Sse2;
    switch (path) {
    case ExpPath::Avx2: return expSumAvx2(logits, n, temperature, maxScaled, out);
    case ExpPath::Sse2: return expSumSse2(logits, n, temperature, maxScaled, out);
    default: return tail(logits, 0, n, temperature, maxScaled, out, 0.0);
    }
}

}  // namespace

double lessonExpSum(const double* logits, std::size_t n, double temperature, double maxScaled, double* out, ExpPath path)
{
    return expSum(logits, n, temperature, maxScaled, out, path);
}

double lessonExpSum(const float* logits, std::size_t n, double temperature, double maxScaled, double* out, ExpPath path)
{
    return expSum(logits, n, temperature, maxScaled, out, path);
}

}  // namespace logitlab::engine::detail
