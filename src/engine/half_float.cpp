#include "half_float.h"

#include <bit>
#include <cmath>
#include <limits>

namespace logitlab::engine {

double halfToDouble(std::uint16_t bits)
{
    const bool negative = (bits & 0x8000u) != 0;
    const int exponent = (bits >> 10) & 0x1F;
    const int mantissa = bits & 0x3FF;
    double value = 0.0;
    if (exponent == 0x1F)
        value = mantissa == 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
    else if (exponent == 0)
        value = std::ldexp(static_cast<double>(mantissa), -24);  // subnormal: mantissa x 2^-24
    else
        value = std::ldexp(static_cast<double>(mantissa + 0x400), exponent - 25);
    return negative ? -value : value;
}

double bfloat16ToDouble(std::uint16_t bits)
{
    // bfloat16 is the top half of a float32.
    return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16));
}

}  // namespace logitlab::engine
