#include "engine/kernels/float_formats.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>

namespace logitlab::engine {

namespace {

struct FormatTraits {
    std::string_view name;
    int precision;    // significand bits with the implicit one
    int minExponent;  // exponent of the smallest normal value
    int bits;
    double max;
};

const FormatTraits& traits(FloatFormat format)
{
    static const FormatTraits table[] = {
        {"float64", 53, -1022, 64, std::numeric_limits<double>::max()},
        {"float32", 24, -126, 32, static_cast<double>(std::numeric_limits<float>::max())},
        {"bf16", 8, -126, 16, std::ldexp(255.0, 120)},  // (2 - 2^-7) * 2^127
        {"f16", 11, -14, 16, 65504.0},
    };
    return table[static_cast<int>(format)];
}

// Round x to `precision` significant bits with the exponent floored at minExponent (gradual
// underflow): scaling by a power of two is exact in double, and rint rounds ties to even.
double roundToPrecision(double x, const FormatTraits& t)
{
    if (!std::isfinite(x) || x == 0.0)
        return x;
    int exponent = 0;
    std::frexp(x, &exponent);  // |x| in [2^(exponent-1), 2^exponent)
    const int quantum = std::max(exponent - 1, t.minExponent) - (t.precision - 1);
    const double rounded = std::ldexp(std::rint(std::ldexp(x, -quantum)), quantum);
    // Past the largest finite value by half an ULP or more rounds to infinity, as IEEE 754 says.
    if (std::fabs(rounded) > t.max)
        return std::copysign(std::numeric_limits<double>::infinity(), x);
    return rounded;
}

}  // namespace

std::string_view floatFormatName(FloatFormat format) { return traits(format).name; }

std::optional<FloatFormat> floatFormatFromName(std::string_view name)
{
    for (FloatFormat f : {FloatFormat::Float64, FloatFormat::Float32, FloatFormat::BFloat16, FloatFormat::Float16})
        if (traits(f).name == name)
            return f;
    return std::nullopt;
}

std::vector<std::string> floatFormatNames() { return {"float64", "float32", "bf16", "f16"}; }

int significandBits(FloatFormat format) { return traits(format).precision; }

int storageBits(FloatFormat format) { return traits(format).bits; }

double maxFinite(FloatFormat format) { return traits(format).max; }

double roundTo(FloatFormat format, double x)
{
    switch (format) {
    case FloatFormat::Float64:
        return x;
    case FloatFormat::Float32:
        return static_cast<double>(static_cast<float>(x));
    case FloatFormat::BFloat16:
    case FloatFormat::Float16:
        break;
    }
    return roundToPrecision(x, traits(format));
}

double roundScaled(FloatFormat format, bool negative, std::uint64_t m, int e, bool sticky)
{
    const FormatTraits& t = traits(format);
    const int top = 63 - std::countl_zero(m);
    const int quantum = std::max(e + top, t.minExponent) - (t.precision - 1);
    const int shift = quantum - e;
    double magnitude = 0.0;
    if (shift <= 0) {
        magnitude = std::ldexp(static_cast<double>(m), e);  // m has at most `precision` bits: exact
    } else {
        std::uint64_t keep = 0;
        bool up = false;
        if (shift < 64) {
            keep = m >> shift;
            const std::uint64_t rest = m & ((std::uint64_t{1} << shift) - 1);
            const std::uint64_t half = std::uint64_t{1} << (shift - 1);
            up = rest > half || (rest == half && (sticky || (keep & 1u)));
        } else if (shift == 64) {
            const std::uint64_t half = std::uint64_t{1} << 63;
            up = m > half || (m == half && sticky);
        }
        magnitude = std::ldexp(static_cast<double>(keep + (up ? 1u : 0u)), quantum);
    }
    if (magnitude > t.max)
        magnitude = std::numeric_limits<double>::infinity();
    return negative ? -magnitude : magnitude;
}

std::uint16_t toBFloat16Bits(double x)
{
    // bfloat16 is the top half of a float32, and a bfloat16 value is exactly a float.
    const double rounded = roundTo(FloatFormat::BFloat16, x);
    if (std::isnan(rounded))
        return 0x7fc0;
    return static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(static_cast<float>(rounded)) >> 16);
}

std::uint16_t toFloat16Bits(double x)
{
    const double v = roundTo(FloatFormat::Float16, x);
    if (std::isnan(v))
        return 0x7e00;
    const std::uint16_t sign = std::signbit(v) ? 0x8000 : 0;
    const double a = std::fabs(v);
    if (std::isinf(a))
        return sign | 0x7c00;
    if (a < std::ldexp(1.0, -14))  // subnormal or zero: multiples of 2^-24
        return sign | static_cast<std::uint16_t>(std::ldexp(a, 24));
    int exponent = 0;
    std::frexp(a, &exponent);
    const auto field = static_cast<std::uint16_t>(exponent - 1 + 15);
    const auto mantissa = static_cast<std::uint16_t>(std::ldexp(a, 11 - exponent) - 1024.0);
    return static_cast<std::uint16_t>(sign | (field << 10) | mantissa);
}

double fromBFloat16Bits(std::uint16_t bits)
{
    return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16));
}

double fromFloat16Bits(std::uint16_t bits)
{
    const double sign = (bits & 0x8000) ? -1.0 : 1.0;
    const int field = (bits >> 10) & 0x1f;
    const int mantissa = bits & 0x3ff;
    if (field == 0)
        return sign * std::ldexp(mantissa, -24);
    if (field == 31)
        return mantissa ? std::numeric_limits<double>::quiet_NaN() : sign * std::numeric_limits<double>::infinity();
    return sign * std::ldexp(1024 + mantissa, field - 25);
}

std::uint64_t bitsOf(FloatFormat format, double x)
{
    switch (format) {
    case FloatFormat::Float64:
        return std::bit_cast<std::uint64_t>(x);
    case FloatFormat::Float32:
        return std::bit_cast<std::uint32_t>(static_cast<float>(x));
    case FloatFormat::BFloat16:
        return toBFloat16Bits(x);
    case FloatFormat::Float16:
        return toFloat16Bits(x);
    }
    return 0;
}

double fromBits(FloatFormat format, std::uint64_t bits)
{
    switch (format) {
    case FloatFormat::Float64:
        return std::bit_cast<double>(bits);
    case FloatFormat::Float32:
        return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(bits)));
    case FloatFormat::BFloat16:
        return fromBFloat16Bits(static_cast<std::uint16_t>(bits));
    case FloatFormat::Float16:
        return fromFloat16Bits(static_cast<std::uint16_t>(bits));
    }
    return 0.0;
}

std::string hexBits(FloatFormat format, double x)
{
    char text[24];
    std::snprintf(text, sizeof text, "0x%0*llx", storageBits(format) / 4,
                  static_cast<unsigned long long>(bitsOf(format, x)));
    return text;
}

std::int64_t ordinalOf(FloatFormat format, double x)
{
    const std::uint64_t bits = bitsOf(format, x);
    const std::uint64_t sign = std::uint64_t{1} << (storageBits(format) - 1);
    const auto magnitude = static_cast<std::int64_t>(bits & ~sign);
    return (bits & sign) ? -magnitude : magnitude;
}

}  // namespace logitlab::engine
