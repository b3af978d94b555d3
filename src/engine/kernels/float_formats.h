// The four floating-point formats the summation lab works in (float64, float32, bfloat16,
// float16) and the correct rounding of a double into each: round to nearest, ties to even,
// overflow to infinity, gradual underflow into subnormals. Values of every format are held in
// doubles (each format is a subset of float64), with their bit patterns on the side for display
// and for counting ULPs. Shared by any experiment that rounds storage or accumulators.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace logitlab::engine {

enum class FloatFormat { Float64, Float32, BFloat16, Float16 };

// "float64", "float32", "bf16", "f16": the names files and the CLI use.
std::string_view floatFormatName(FloatFormat format);
std::optional<FloatFormat> floatFormatFromName(std::string_view name);
std::vector<std::string> floatFormatNames();

// Significand bits with the implicit one (53, 24, 8, 11) and total bits (64, 32, 16, 16).
int significandBits(FloatFormat format);
int storageBits(FloatFormat format);
// The largest finite value of the format.
double maxFinite(FloatFormat format);

// x rounded correctly into the format (NaN stays NaN). From a float, round((double)f) is the
// same as rounding the float, since every float is a double.
double roundTo(FloatFormat format, double x);
// The same for a value (m + sticky) * 2^e, m != 0, where `sticky` says that bits below m are
// non-zero: the exact sum's last step. Negative when `negative`.
double roundScaled(FloatFormat format, bool negative, std::uint64_t m, int e, bool sticky);

// The bit pattern of a value already in the format (roundTo(format, x) == x).
std::uint64_t bitsOf(FloatFormat format, double x);
double fromBits(FloatFormat format, std::uint64_t bits);
// "0x3fe3333333333334" (hex digits for the format's width).
std::string hexBits(FloatFormat format, double x);
// Position of x on the format's number line: consecutive values differ by 1, +0 and -0 are 0.
// The ULP distance of two values of the format is the difference of their ordinals.
std::int64_t ordinalOf(FloatFormat format, double x);

// Bit-level converters for bfloat16 and float16, correctly rounded from double.
std::uint16_t toBFloat16Bits(double x);
std::uint16_t toFloat16Bits(double x);
double fromBFloat16Bits(std::uint16_t bits);
double fromFloat16Bits(std::uint16_t bits);

}  // namespace logitlab::engine
