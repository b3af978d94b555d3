#include "float_formats.h"

#include <bit>
#include <cmath>
#include <algorithm>
#include <cstdint>

namespace logitlab::engine {

float roundToBfloat16(float value)
{
    if (std::isnan(value))
        return value;
    // bfloat16 is float32's top half: add half of the dropped part (plus the kept part's lowest
    // bit, for ties to even) and cut. A carry into the exponent rounds up to the next binade or
    // to infinity, as it should.
    const auto bits = std::bit_cast<std::uint32_t>(value);
    const std::uint32_t rounded = bits + 0x7fffu + ((bits >> 16) & 1u);
    return std::bit_cast<float>(rounded & 0xffff0000u);
}

float roundToFloat16(float value)
{
    if (!std::isfinite(value))
        return value;
    const float magnitude = std::fabs(value);
    if (magnitude >= 65520.0f)  // halfway between float16's largest (65504) and 2^16
        return std::copysign(INFINITY, value);
    // The spacing of float16 numbers at this magnitude: 2^(e - 10) for normals, 2^-24 below
    // 2^-14. Adding and subtracting a power of two that puts the spacing at float32's last
    // place rounds to nearest even in float32 hardware, exactly.
    int exponent = 0;
    std::frexp(magnitude, &exponent);  // magnitude in [2^(exponent-1), 2^exponent)
    const int spacingExponent = std::max(exponent - 1, -14) - 10;
    const float shift = std::ldexp(1.0f, spacingExponent + 23);
    const volatile float up = magnitude + shift;  // volatile: keeps the rounding step
    const float rounded = up - shift;
    return std::copysign(rounded, value);
}

}  // namespace logitlab::engine
