#include "engine/kernels/fdlibm_exp.h"

#include "engine/kernels/fdlibm_exp_simd.h"

#include <bit>
#include <cstdint>

// This file must be compiled without FMA contraction and without -ffast-math: fdlibm's result
// depends on every intermediate rounding (src/engine/CMakeLists.txt sets -ffp-contract=off).

namespace logitlab::engine {

namespace {

std::uint32_t highWord(double x) { return static_cast<std::uint32_t>(std::bit_cast<std::uint64_t>(x) >> 32); }

std::uint32_t lowWord(double x) { return static_cast<std::uint32_t>(std::bit_cast<std::uint64_t>(x)); }

// 2^e for a normal exponent e in [-1022, 1023], built from its bits as fdlibm's INSERT_WORDS does.
double powerOfTwo(int e) { return std::bit_cast<double>(static_cast<std::uint64_t>(e + 1023) << 52); }

}  // namespace

double fdlibmExp(double x)
{
    using namespace fdlibm;
    // volatile in fdlibm only to keep the compiler from folding the overflow/underflow products;
    // their values are what matters here.
    constexpr double huge = 1.0e+300;

    std::uint32_t hx = highWord(x);
    const int xsb = static_cast<int>((hx >> 31) & 1);  // sign bit of x
    hx &= 0x7fffffff;                                  // high word of |x|

    // Non-finite and out-of-range arguments.
    if (hx >= 0x40862E42) {  // |x| >= 709.78...
        if (hx >= 0x7ff00000) {
            if (((hx & 0xfffff) | lowWord(x)) != 0)
                return x + x;           // NaN
            return xsb == 0 ? x : 0.0;  // exp(+inf) = inf, exp(-inf) = 0
        }
        if (x > kOverflowThreshold)
            return huge * huge;  // overflow: +inf
        if (x < kUnderflowThreshold)
            return kTwoM1000 * kTwoM1000;  // underflow: +0
    }

    // Argument reduction: x = k ln2 + r, |r| <= 0.5 ln2, with ln2 split into hi + lo.
    double hi = 0.0;
    double lo = 0.0;
    int k = 0;
    if (hx > 0x3fd62e42) {      // |x| > 0.5 ln2
        if (hx < 0x3FF0A2B2) {  // and |x| < 1.5 ln2
            // V8 returns the correctly rounded e for exp(1); the reduction below is one ulp off.
            if (x == 1.0)
                return kE;
            hi = x - (xsb == 0 ? kLn2Hi : -kLn2Hi);
            lo = xsb == 0 ? kLn2Lo : -kLn2Lo;
            k = 1 - xsb - xsb;
        } else {
            k = static_cast<int>(kInvLn2 * x + (xsb == 0 ? 0.5 : -0.5));
            const double t = k;
            hi = x - t * kLn2Hi;  // t * ln2hi is exact here
            lo = t * kLn2Lo;
        }
        x = hi - lo;
    } else if (hx < 0x3e300000) {  // |x| < 2^-28
        if (huge + x > 1.0)
            return 1.0 + x;
    }

    // x is now in the primary range.
    const double t = x * x;
    const double twopk = k >= -1021 ? powerOfTwo(k) : powerOfTwo(k + 1000);
    const double c = x - t * (kP1 + t * (kP2 + t * (kP3 + t * (kP4 + t * kP5))));
    if (k == 0)
        return 1.0 - ((x * c) / (c - 2.0) - x);
    const double y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi);
    if (k >= -1021) {
        if (k == 1024)
            return y * 2.0 * kTwo1023;
        return y * twopk;
    }
    return y * twopk * kTwoM1000;  // denormal result
}

bool expPathAvailable(ExpPath path)
{
    if (path == ExpPath::Avx2 || path == ExpPath::Avx2WithoutFma)
        return fdlibm::hasAvx2();
    return true;
}

void fdlibmExpArray(const double* in, double* out, std::size_t n, ExpPath path)
{
    if (path == ExpPath::Auto)
        path = fdlibm::hasAvx2() ? ExpPath::Avx2 : ExpPath::Sse2;
    std::size_t i = 0;
    if (path == ExpPath::Avx2 || path == ExpPath::Avx2WithoutFma) {  // no FMA in this path
        for (; i + 4 <= n; i += 4)
            fdlibm::expAvx2(in + i, out + i);
    } else if (path == ExpPath::Sse2) {
        for (; i + 2 <= n; i += 2)
            fdlibm::expSse2(in + i, out + i);
    }
    for (; i < n; ++i)
        out[i] = fdlibmExp(in[i]);
}

}  // namespace logitlab::engine
