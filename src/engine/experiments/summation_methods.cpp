#include "engine/experiments/summation_methods.h"

#include "engine/rng/seed_split.h"
#include "engine/stats/exact_sum.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <numeric>
#include <type_traits>

namespace logitlab::engine {

namespace {

// The arithmetic of one accumulator format: the type a value is held in, a term's rounding
// into the format, and correctly rounded + and -.
struct Float64Arithmetic {
    using T = double;
    static T from(double x) { return x; }
    static T from(float x) { return x; }
    static T add(T a, T b) { return a + b; }
    static T sub(T a, T b) { return a - b; }
};

struct Float32Arithmetic {
    using T = float;
    static T from(double x) { return static_cast<float>(x); }
    static T from(float x) { return x; }
    static T add(T a, T b) { return a + b; }
    static T sub(T a, T b) { return a - b; }
};

// bfloat16 and float16 values are floats. The float sum of two of them is correctly rounded
// to 24 bits, and rounding that again to 8 (or 11) bits is still the correctly rounded sum:
// 24 >= 2p + 2 makes the double rounding innocuous (Figueroa 1995).
struct BFloat16Arithmetic {
    using T = float;
    static T round(float x)
    {
        // Round to nearest even on the upper 16 bits; a carry into the exponent is right,
        // and one out of the largest finite value gives infinity.
        std::uint32_t u = std::bit_cast<std::uint32_t>(x);
        if ((u & 0x7fffffffu) > 0x7f800000u)
            return x;  // NaN
        u += 0x7fffu + ((u >> 16) & 1u);
        return std::bit_cast<float>(u & 0xffff0000u);
    }
    static T from(double x) { return static_cast<float>(roundTo(FloatFormat::BFloat16, x)); }
    static T from(float x) { return round(x); }
    static T add(T a, T b) { return round(a + b); }
    static T sub(T a, T b) { return round(a - b); }
};

struct Float16Arithmetic {
    using T = float;
    static T round(float x) { return static_cast<float>(roundTo(FloatFormat::Float16, static_cast<double>(x))); }
    static T from(double x) { return static_cast<float>(roundTo(FloatFormat::Float16, x)); }
    static T from(float x) { return round(x); }
    static T add(T a, T b) { return round(a + b); }
    static T sub(T a, T b) { return round(a - b); }
};

template <class A>
using Values = std::vector<typename A::T>;

// Left to right over v[begin, end); an empty range is 0.
template <class A>
typename A::T sequential(const Values<A>& v, std::size_t begin, std::size_t end)
{
    if (begin >= end)
        return typename A::T(0);
    typename A::T acc = v[begin];
    for (std::size_t i = begin + 1; i < end; ++i)
        acc = A::add(acc, v[i]);
    return acc;
}

// numpy's pairwise_sum (numpy/_core/src/umath/loops_utils.h.src): below 8 terms a plain loop
// from 0; up to 128 eight accumulators over strides of 8 combined as ((0+1)+(2+3))+((4+5)+(6+7)),
// then the remainder one by one; above 128 the two halves (the first a multiple of 8) recursively.
template <class A>
typename A::T pairwise(const typename A::T* a, std::size_t n)
{
    using T = typename A::T;
    if (n < 8) {
        T res = T(0);
        for (std::size_t i = 0; i < n; ++i)
            res = A::add(res, a[i]);
        return res;
    }
    if (n <= 128) {
        T r[8];
        for (int j = 0; j < 8; ++j)
            r[j] = a[j];
        std::size_t i = 8;
        for (; i < n - (n % 8); i += 8)
            for (std::size_t j = 0; j < 8; ++j)
                r[j] = A::add(r[j], a[i + j]);
        T res = A::add(A::add(A::add(r[0], r[1]), A::add(r[2], r[3])), A::add(A::add(r[4], r[5]), A::add(r[6], r[7])));
        for (; i < n; ++i)
            res = A::add(res, a[i]);
        return res;
    }
    std::size_t n2 = n / 2;
    n2 -= n2 % 8;
    return A::add(pairwise<A>(a, n2), pairwise<A>(a + n2, n - n2));
}

// np.sum's reduction: the output starts at 0 (add's identity), and each block of at most 8,192
// terms is summed by pairwise_sum and added to it. For float16 numpy's pairwise_sum adds in
// float32 and the block's sum is added to the float16 total in float32 and rounded once to
// float16; LogitLab does the same for both 16-bit formats (numpy has no bfloat16).
template <class A, class Inner>
typename A::T numpyBlocked(const typename A::T* a, std::size_t n)
{
    using T = typename A::T;
    T total = T(0);
    for (std::size_t start = 0; start < n; start += kNumpyBlock)
        total = A::add(total, pairwise<Inner>(a + start, std::min(kNumpyBlock, n - start)));
    return total;
}

template <class A>
typename A::T numpySum(const typename A::T* a, std::size_t n)
{
    if constexpr (std::is_same_v<A, BFloat16Arithmetic> || std::is_same_v<A, Float16Arithmetic>)
        return numpyBlocked<A, Float32Arithmetic>(a, n);
    else
        return numpyBlocked<A, A>(a, n);
}

// Partial sums of contiguous chunks [bounds[i], bounds[i + 1]), added in chunk order.
template <class A>
typename A::T chunked(const Values<A>& v, const std::vector<std::size_t>& bounds)
{
    using T = typename A::T;
    T total = T(0);
    bool first = true;
    for (std::size_t c = 0; c + 1 < bounds.size(); ++c) {
        if (bounds[c] >= bounds[c + 1])
            continue;
        const T part = sequential<A>(v, bounds[c], bounds[c + 1]);
        total = first ? part : A::add(total, part);
        first = false;
    }
    return total;
}

// L lanes each summing every L-th term of the vectorised part, the lanes halved pairwise (a
// horizontal reduction), then the tail one by one: what a compiler's vectorised loop does.
template <class A>
typename A::T simdLanes(const Values<A>& v, std::size_t lanes)
{
    using T = typename A::T;
    const std::size_t body = v.size() - v.size() % lanes;
    if (body == 0)
        return sequential<A>(v, 0, v.size());
    std::vector<T> lane(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(lanes));
    for (std::size_t i = lanes; i < body; i += lanes)
        for (std::size_t l = 0; l < lanes; ++l)
            lane[l] = A::add(lane[l], v[i + l]);
    for (std::size_t width = lanes / 2; width >= 1; width /= 2)
        for (std::size_t l = 0; l < width; ++l)
            lane[l] = A::add(lane[l], lane[l + width]);
    T acc = lane[0];
    for (std::size_t i = body; i < v.size(); ++i)
        acc = A::add(acc, v[i]);
    return acc;
}

template <class A>
typename A::T kahan(const Values<A>& v)
{
    using T = typename A::T;
    T sum = T(0);
    T c = T(0);
    for (T x : v) {
        const T y = A::sub(x, c);
        const T t = A::add(sum, y);
        // Past an overflow the compensation would be inf - inf (NaN): the sum then stays what
        // plain addition gives (inf), as the docs say.
        c = std::isfinite(static_cast<double>(t)) ? A::sub(A::sub(t, sum), y) : T(0);
        sum = t;
    }
    return sum;
}

template <class A>
typename A::T neumaier(const Values<A>& v)
{
    using T = typename A::T;
    if (v.empty())
        return T(0);
    T sum = v[0];
    T c = T(0);
    for (std::size_t i = 1; i < v.size(); ++i) {
        const T x = v[i];
        const T t = A::add(sum, x);
        if (!std::isfinite(static_cast<double>(t))) {  // overflowed: no compensation (inf - inf)
            sum = t;
            c = T(0);
            continue;
        }
        if (std::fabs(sum) >= std::fabs(x))
            c = A::add(c, A::add(A::sub(sum, t), x));
        else
            c = A::add(c, A::add(A::sub(x, t), sum));
        sum = t;
    }
    return A::add(sum, c);
}

template <class A>
double sumAs(SumMethod method, std::span<const double> terms, const SumShape& shape)
{
    using T = typename A::T;
    Values<A> v(terms.size());
    std::transform(terms.begin(), terms.end(), v.begin(), [](double x) { return A::from(x); });
    const std::size_t n = v.size();
    const auto byMagnitude = [&v](bool ascending) {
        // Stable, so equal magnitudes keep their order and the result is defined.
        std::stable_sort(v.begin(), v.end(), [ascending](T a, T b) {
            return ascending ? std::fabs(a) < std::fabs(b) : std::fabs(a) > std::fabs(b);
        });
    };
    switch (method) {
    case SumMethod::LeftToRight:
        return static_cast<double>(sequential<A>(v, 0, n));
    case SumMethod::Reversed:
        std::reverse(v.begin(), v.end());
        return static_cast<double>(sequential<A>(v, 0, n));
    case SumMethod::AscendingMagnitude:
        byMagnitude(true);
        return static_cast<double>(sequential<A>(v, 0, n));
    case SumMethod::DescendingMagnitude:
        byMagnitude(false);
        return static_cast<double>(sequential<A>(v, 0, n));
    case SumMethod::Pairwise:
        return static_cast<double>(pairwise<A>(v.data(), n));
    case SumMethod::NumpySum:
        return static_cast<double>(numpySum<A>(v.data(), n));
    case SumMethod::Blocked: {
        const auto split = static_cast<std::size_t>(std::max(1, shape.split));
        const std::size_t tile = (n + split - 1) / split;
        std::vector<std::size_t> bounds;
        for (std::size_t s = 0; s <= split; ++s)
            bounds.push_back(std::min(n, s * tile));
        return static_cast<double>(chunked<A>(v, bounds));
    }
    case SumMethod::Threads: {
        const auto threads = static_cast<std::size_t>(std::max(1, shape.threads));
        std::vector<std::size_t> bounds;
        for (std::size_t t = 0; t <= threads; ++t)
            bounds.push_back(t * n / threads);
        return static_cast<double>(chunked<A>(v, bounds));
    }
    case SumMethod::SimdLanes:
        return static_cast<double>(simdLanes<A>(v, static_cast<std::size_t>(std::max(1, shape.lanes))));
    case SumMethod::Kahan:
        return static_cast<double>(kahan<A>(v));
    case SumMethod::Neumaier:
        return static_cast<double>(neumaier<A>(v));
    case SumMethod::Exact:
        break;
    }
    return 0.0;
}

// A SplitMix64 stream giving 32-bit halves, and Lemire's unbiased bounded integers
// (multiply-shift with a rare rejection): cheap enough that the shuffle, not the generator, is
// the cost.
class ShuffleStream {
public:
    explicit ShuffleStream(std::uint64_t seed) : m_state(seed) {}
    std::uint32_t next32()
    {
        if (m_haveHalf) {
            m_haveHalf = false;
            return static_cast<std::uint32_t>(m_half);
        }
        m_half = splitMix64(m_state);
        m_haveHalf = true;
        return static_cast<std::uint32_t>(m_half >> 32);
    }
    // Uniform in [0, range), range >= 1.
    std::uint32_t below(std::uint32_t range)
    {
        std::uint64_t m = std::uint64_t{next32()} * range;
        auto low = static_cast<std::uint32_t>(m);
        if (low < range) {
            const std::uint32_t threshold = (0u - range) % range;
            while (low < threshold) {
                m = std::uint64_t{next32()} * range;
                low = static_cast<std::uint32_t>(m);
            }
        }
        return static_cast<std::uint32_t>(m >> 32);
    }

private:
    std::uint64_t m_state;
    std::uint64_t m_half = 0;
    bool m_haveHalf = false;
};

// Fisher-Yates from the end, summing each element as it is fixed in place: the elements come
// out in a uniformly random order, so the shuffle and the sum are one pass.
template <class A, class E>
double shuffleAs(std::span<const E> terms, std::uint64_t seed, std::vector<E>& scratch)
{
    using T = typename A::T;
    const std::size_t n = terms.size();
    if (n == 0)
        return 0.0;
    if (n == 1)
        return static_cast<double>(A::from(terms[0]));
    scratch.resize(n);
    std::memcpy(scratch.data(), terms.data(), n * sizeof(E));
    E* a = scratch.data();
    ShuffleStream stream(seed);
    // The first draw starts the accumulator, so a single term sums to itself (even -0).
    std::size_t i = n - 1;
    const auto draw = [&]() {
        const std::size_t j = stream.below(static_cast<std::uint32_t>(i + 1));
        const E pick = a[j];
        a[j] = a[i];
        return A::from(pick);
    };
    T acc = draw();
    for (--i; i > 0; --i)
        acc = A::add(acc, draw());
    return static_cast<double>(A::add(acc, A::from(a[0])));
}

template <class E>
double shuffleIn(std::span<const E> terms, FloatFormat accumulator, std::uint64_t seed, std::vector<E>& scratch)
{
    switch (accumulator) {
    case FloatFormat::Float64:
        return shuffleAs<Float64Arithmetic>(terms, seed, scratch);
    case FloatFormat::Float32:
        return shuffleAs<Float32Arithmetic>(terms, seed, scratch);
    case FloatFormat::BFloat16:
        return shuffleAs<BFloat16Arithmetic>(terms, seed, scratch);
    case FloatFormat::Float16:
        return shuffleAs<Float16Arithmetic>(terms, seed, scratch);
    }
    return 0.0;
}

struct MethodName {
    SumMethod method;
    std::string_view name;
};

constexpr MethodName kMethods[] = {
    {SumMethod::LeftToRight, "left-to-right"},
    {SumMethod::Reversed, "reversed"},
    {SumMethod::AscendingMagnitude, "ascending"},
    {SumMethod::DescendingMagnitude, "descending"},
    {SumMethod::Pairwise, "pairwise"},
    {SumMethod::NumpySum, "numpy-sum"},
    {SumMethod::Blocked, "blocked"},
    {SumMethod::SimdLanes, "simd"},
    {SumMethod::Threads, "threads"},
    {SumMethod::Kahan, "kahan"},
    {SumMethod::Neumaier, "neumaier"},
    {SumMethod::Exact, "exact"},
};

}  // namespace

std::string_view sumMethodName(SumMethod method) { return kMethods[static_cast<int>(method)].name; }

std::optional<SumMethod> sumMethodFromName(std::string_view name)
{
    for (const MethodName& m : kMethods)
        if (m.name == name)
            return m.method;
    return std::nullopt;
}

std::vector<SumMethod> allSumMethods()
{
    std::vector<SumMethod> out;
    for (const MethodName& m : kMethods)
        out.push_back(m.method);
    return out;
}

std::vector<std::string> sumMethodNames()
{
    std::vector<std::string> out;
    for (const MethodName& m : kMethods)
        out.emplace_back(m.name);
    return out;
}

std::string describeSumMethod(SumMethod method, int split, int lanes, int threads)
{
    switch (method) {
    case SumMethod::LeftToRight:
        return "left to right, one accumulator";
    case SumMethod::Reversed:
        return "right to left";
    case SumMethod::AscendingMagnitude:
        return "sorted by magnitude, smallest first";
    case SumMethod::DescendingMagnitude:
        return "sorted by magnitude, largest first";
    case SumMethod::Pairwise:
        return "pairwise rule (numpy's pairwise_sum on the whole list): 8 accumulators up to 128 terms, "
               "halves above";
    case SumMethod::NumpySum:
        return "numpy's np.sum: pairwise_sum on blocks of 8,192 terms, the blocks added in sequence"
               " (16-bit formats: float32 inside a block)";
    case SumMethod::Blocked:
        return "split-K: " + std::to_string(split) + " contiguous splits, partials added in order";
    case SumMethod::SimdLanes:
        return std::to_string(lanes) + " SIMD lanes, lanes halved pairwise, then the tail";
    case SumMethod::Threads:
        return std::to_string(threads) + " threads' contiguous chunks, partials in thread order";
    case SumMethod::Kahan:
        return "Kahan compensated summation";
    case SumMethod::Neumaier:
        return "Neumaier (improved Kahan-Babuska) summation";
    case SumMethod::Exact:
        return "exact sum (superaccumulator), rounded once";
    }
    return {};
}

double sumInOrder(SumMethod method, std::span<const double> terms, FloatFormat accumulator, const SumShape& shape)
{
    if (method == SumMethod::Exact) {
        ExactSum exact;
        exact.add(terms);
        return exact.rounded(accumulator);
    }
    switch (accumulator) {
    case FloatFormat::Float64:
        return sumAs<Float64Arithmetic>(method, terms, shape);
    case FloatFormat::Float32:
        return sumAs<Float32Arithmetic>(method, terms, shape);
    case FloatFormat::BFloat16:
        return sumAs<BFloat16Arithmetic>(method, terms, shape);
    case FloatFormat::Float16:
        return sumAs<Float16Arithmetic>(method, terms, shape);
    }
    return 0.0;
}

double shuffledSum(std::span<const float> terms, FloatFormat accumulator, std::uint64_t seed,
                   std::vector<float>& scratch)
{
    return shuffleIn(terms, accumulator, seed, scratch);
}

double shuffledSum(std::span<const double> terms, FloatFormat accumulator, std::uint64_t seed,
                   std::vector<double>& scratch)
{
    return shuffleIn(terms, accumulator, seed, scratch);
}

}  // namespace logitlab::engine
