#include "engine/kernels/lesson_divide.h"

#include "engine/kernels/constant_quotient.h"
#include "engine/kernels/cpu_features.h"

#include <cstring>
#include <emmintrin.h>
#include <immintrin.h>

namespace logitlab::engine::detail {

namespace {

void divideSse2(double* values, std::size_t n, double divisor)
{
    const __m128d d = _mm_set1_pd(divisor);
    std::size_t i = 0;
    for (; i + 2 <= n; i += 2)
        _mm_storeu_pd(values + i, _mm_div_pd(_mm_loadu_pd(values + i), d));
    for (; i < n; ++i)
        values[i] /= divisor;
}

// Four vectors a block: their quotients are computed, and the block's smallest and largest
// dividends checked once (a check a vector, and its branch, cost a sixth of the pass). The check
// is on a, not |a|: softmax dividends are positive (a sum is between 1 and V), and a block with a
// negative one, like one beyond the range, divides. Fewer than 16 left over divide one by one.
__attribute__((target("avx2,fma"))) void divideFma(double* values, std::size_t n, double divisor)
{
    const __m256d d = _mm256_set1_pd(divisor);
    const __m256d y = _mm256_set1_pd(1.0 / divisor);
    const __m256d low = _mm256_set1_pd(kQuotientLow);
    const __m256d high = _mm256_set1_pd(kQuotientHigh);
    std::size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m256d a0 = _mm256_loadu_pd(values + i);
        const __m256d a1 = _mm256_loadu_pd(values + i + 4);
        const __m256d a2 = _mm256_loadu_pd(values + i + 8);
        const __m256d a3 = _mm256_loadu_pd(values + i + 12);
        // NaN drops out of min and max (they return their second operand): its quotient is NaN
        // either way.
        const __m256d smallest = _mm256_min_pd(_mm256_min_pd(a0, a1), _mm256_min_pd(a2, a3));
        const __m256d largest = _mm256_max_pd(_mm256_max_pd(a0, a1), _mm256_max_pd(a2, a3));
        const __m256d inRange =
            _mm256_and_pd(_mm256_cmp_pd(smallest, low, _CMP_GE_OQ), _mm256_cmp_pd(largest, high, _CMP_LE_OQ));
        if (_mm256_movemask_pd(inRange) == 0xf) [[likely]] {
            _mm256_storeu_pd(values + i, quotientByConstantAvx2(a0, d, y));
            _mm256_storeu_pd(values + i + 4, quotientByConstantAvx2(a1, d, y));
            _mm256_storeu_pd(values + i + 8, quotientByConstantAvx2(a2, d, y));
            _mm256_storeu_pd(values + i + 12, quotientByConstantAvx2(a3, d, y));
        } else {
            _mm256_storeu_pd(values + i, _mm256_div_pd(a0, d));
            _mm256_storeu_pd(values + i + 4, _mm256_div_pd(a1, d));
            _mm256_storeu_pd(values + i + 8, _mm256_div_pd(a2, d));
            _mm256_storeu_pd(values + i + 12, _mm256_div_pd(a3, d));
        }
    }
    for (; i < n; ++i)
        values[i] /= divisor;
}

// The member at `at`, read and written through memcpy: the structs are reached by byte offsets.
double loadAt(const unsigned char* at)
{
    double v;
    std::memcpy(&v, at, sizeof v);
    return v;
}

void storeAt(unsigned char* at, double v) { std::memcpy(at, &v, sizeof v); }

void divideMemberDivide(unsigned char* at, std::size_t n, std::size_t stride, double divisor)
{
    for (std::size_t i = 0; i < n; ++i, at += stride)
        storeAt(at, loadAt(at) / divisor);
}

// divideFma's quotient one lane at a time.
__attribute__((target("avx2,fma"))) void divideMemberFma(unsigned char* at, std::size_t n, std::size_t stride,
                                                         double divisor)
{
    const double y = 1.0 / divisor;
    for (std::size_t i = 0; i < n; ++i, at += stride) {
        const double value = loadAt(at);
        if (value >= kQuotientLow && value <= kQuotientHigh) [[likely]]
            storeAt(at, quotientByConstant(value, divisor, y));
        else
            storeAt(at, value / divisor);  // a branch, so the divider runs only here
    }
}

}  // namespace

bool fmaAvailable() { return hasAvx2Fma(); }

void divideBy(double* values, std::size_t n, double divisor, DividePath path)
{
    if (path == DividePath::Auto)
        path = fmaAvailable() ? DividePath::Fma : DividePath::Divide;
    if (path == DividePath::Fma && quotientDivisorInRange(divisor))
        divideFma(values, n, divisor);
    else
        divideSse2(values, n, divisor);
}

void divideMemberBy(double* first, std::size_t n, std::size_t stride, double divisor, DividePath path)
{
    if (n == 0)
        return;
    if (path == DividePath::Auto)
        path = fmaAvailable() ? DividePath::Fma : DividePath::Divide;
    auto* at = reinterpret_cast<unsigned char*>(first);
    if (path == DividePath::Fma && quotientDivisorInRange(divisor))
        divideMemberFma(at, n, stride, divisor);
    else
        divideMemberDivide(at, n, stride, divisor);
}

}  // namespace logitlab::engine::detail
