#include "lesson_exp_sum.h"

#include "exp_histogram.h"
#include "fdlibm_exp_simd.h"

#include <bit>
#include <cstdint>

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

// Does nothing with the exps: softmax() alone.
struct NoVisit {
    void add(const double*, std::size_t) {}
};

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

// sum + e[0] + e[1] + ... one dependent addition at a time, and the same terms to the visitor.
template <class Visit>
inline double addInOrder(double sum, const double* e, std::size_t n, Visit& visit)
{
    for (std::size_t i = 0; i < n; ++i)
        sum += e[i];
    visit.add(e, n);
    return sum;
}

template <class Scalar, class Visit>
double tail(const Scalar* logits, std::size_t from, std::size_t n, double temperature, double maxScaled, double* out,
            double sum, Visit& visit)
{
    for (std::size_t i = from; i < n; ++i)
        out[i] = fdlibmExp(static_cast<double>(logits[i]) / temperature - maxScaled);
    return addInOrder(sum, out + from, n - from, visit);
}

constexpr std::size_t kAvx2Vectors = 2;
constexpr std::size_t kAvx2Block = 4 * kAvx2Vectors;

template <class Scalar, class Visit>
__attribute__((target("avx2"))) double expSumAvx2(const Scalar* logits, std::size_t n, double temperature,
                                                  double maxScaled, double* out, Visit& visit)
{
    const __m256d t = _mm256_set1_pd(temperature);
    const __m256d inverse = _mm256_set1_pd(1.0 / temperature);
    const bool multiply = exactReciprocal(temperature);
    const __m256d m = _mm256_set1_pd(maxScaled);
    double sum = 0.0;
    std::size_t i = 0;
    for (; i + kAvx2Block <= n; i += kAvx2Block) {
        __m256d x[kAvx2Vectors];
        __m256d plain = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
        for (std::size_t v = 0; v < kAvx2Vectors; ++v) {
            const __m256d l = load4(logits + i + 4 * v);
            x[v] = _mm256_sub_pd(multiply ? _mm256_mul_pd(l, inverse) : _mm256_div_pd(l, t), m);
            plain = _mm256_and_pd(plain, fdlibm::plainNonPositive(x[v]));
        }
        if (_mm256_movemask_pd(plain) == 0xf) {
            __m256d e[kAvx2Vectors];
            fdlibm::expAvx2Plain<kAvx2Vectors>(x, e);
            for (std::size_t v = 0; v < kAvx2Vectors; ++v)
                _mm256_storeu_pd(out + i + 4 * v, e[v]);
        } else {
            for (std::size_t v = 0; v < kAvx2Vectors; ++v)
                _mm256_storeu_pd(out + i + 4 * v, fdlibm::expAvx2Full(x[v]));
        }
        if (i != 0)
            sum = addInOrder(sum, out + i - kAvx2Block, kAvx2Block, visit);
    }
    if (i != 0)
        sum = addInOrder(sum, out + i - kAvx2Block, kAvx2Block, visit);
    return tail(logits, i, n, temperature, maxScaled, out, sum, visit);
}

constexpr std::size_t kSse2Vectors = 4;
constexpr std::size_t kSse2Block = 2 * kSse2Vectors;

template <class Scalar, class Visit>
double expSumSse2(const Scalar* logits, std::size_t n, double temperature, double maxScaled, double* out,
                  Visit& visit)
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
        if (i != 0)
            sum = addInOrder(sum, out + i - kSse2Block, kSse2Block, visit);
    }
    if (i != 0)
        sum = addInOrder(sum, out + i - kSse2Block, kSse2Block, visit);
    return tail(logits, i, n, temperature, maxScaled, out, sum, visit);
}

template <class Scalar, class Visit>
double expSum(const Scalar* logits, std::size_t n, double temperature, double maxScaled, double* out, ExpPath path,
              Visit& visit)
{
    if (path == ExpPath::Auto)
        path = fdlibm::hasAvx2() ? ExpPath::Avx2 : ExpPath::Sse2;
    switch (path) {
    case ExpPath::Avx2: return expSumAvx2(logits, n, temperature, maxScaled, out, visit);
    case ExpPath::Sse2: return expSumSse2(logits, n, temperature, maxScaled, out, visit);
    default: return tail(logits, 0, n, temperature, maxScaled, out, 0.0, visit);
    }
}

}  // namespace

double lessonExpSum(const double* logits, std::size_t n, double temperature, double maxScaled, double* out, ExpPath path)
{
    NoVisit none;
    return expSum(logits, n, temperature, maxScaled, out, path, none);
}

double lessonExpSum(const float* logits, std::size_t n, double temperature, double maxScaled, double* out, ExpPath path)
{
    NoVisit none;
    return expSum(logits, n, temperature, maxScaled, out, path, none);
}

double lessonExpSum(const double* logits, std::size_t n, double temperature, double maxScaled, double* out,
                    ExpHistogram& histogram, ExpPath path)
{
    return expSum(logits, n, temperature, maxScaled, out, path, histogram);
}

double lessonExpSum(const float* logits, std::size_t n, double temperature, double maxScaled, double* out,
                    ExpHistogram& histogram, ExpPath path)
{
    return expSum(logits, n, temperature, maxScaled, out, path, histogram);
}

}  // namespace logitlab::engine::detail
