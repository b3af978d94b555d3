#include "engine/stats/exact_sum.h"

#include <bit>
#include <cmath>

namespace logitlab::engine {

namespace {
// 128-bit arithmetic for the 85-bit shifted mantissa and the 96-bit window (a GCC/Clang extension).
__extension__ typedef unsigned __int128 U128;
}  // namespace

void ExactSum::add(double x)
{
    const auto bits = std::bit_cast<std::uint64_t>(x);
    const int field = static_cast<int>((bits >> 52) & 0x7ff);
    std::uint64_t mantissa = bits & ((std::uint64_t{1} << 52) - 1);
    if (field != 0)
        mantissa |= std::uint64_t{1} << 52;
    if (mantissa == 0)
        return;
    // x = mantissa * 2^(position - 1074): the lowest bit's place above the smallest subnormal.
    const int position = field == 0 ? 0 : field - 1;
    const int limb = position / 32;
    const unsigned shift = static_cast<unsigned>(position % 32);
    // mantissa << shift spans at most 85 bits: three 32-bit digits.
    const U128 v = static_cast<U128>(mantissa) << shift;
    const auto low = static_cast<std::uint64_t>(v & 0xffffffffu);
    const auto mid = static_cast<std::uint64_t>((v >> 32) & 0xffffffffu);
    const auto high = static_cast<std::uint64_t>(v >> 64);
    // Each limb receives less than 2^32 per term, so 2^31 terms fit before any carry.
    const std::int64_t sign = (bits >> 63) ? -1 : 1;
    m_limbs[static_cast<std::size_t>(limb)] += sign * static_cast<std::int64_t>(low);
    m_limbs[static_cast<std::size_t>(limb) + 1] += sign * static_cast<std::int64_t>(mid);
    m_limbs[static_cast<std::size_t>(limb) + 2] += sign * static_cast<std::int64_t>(high);
}

void ExactSum::add(std::span<const double> xs)
{
    for (double x : xs)
        add(x);
}

void ExactSum::add(std::span<const float> xs)
{
    for (float x : xs)
        add(static_cast<double>(x));
}

double ExactSum::rounded(FloatFormat format) const
{
    // Resolve carries into digits in [0, 2^32), two's complement overall: the top limb keeps
    // the sign.
    std::array<std::int64_t, kLimbs> digits = m_limbs;
    for (int i = 0; i + 1 < kLimbs; ++i) {
        const std::int64_t carry = digits[static_cast<std::size_t>(i)] >> 32;  // arithmetic shift: floor
        digits[static_cast<std::size_t>(i)] -= carry * (std::int64_t{1} << 32);
        digits[static_cast<std::size_t>(i) + 1] += carry;
    }
    const bool negative = digits[kLimbs - 1] < 0;
    if (negative) {
        // Negate: the magnitude, normalised the same way.
        for (auto& d : digits)
            d = -d;
        for (int i = 0; i + 1 < kLimbs; ++i) {
            const std::int64_t carry = digits[static_cast<std::size_t>(i)] >> 32;
            digits[static_cast<std::size_t>(i)] -= carry * (std::int64_t{1} << 32);
            digits[static_cast<std::size_t>(i) + 1] += carry;
        }
    }
    int top = kLimbs - 1;
    while (top >= 0 && digits[static_cast<std::size_t>(top)] == 0)
        --top;
    if (top < 0)
        return 0.0;
    // The leading 64 bits (from the top three digits), their weight, and whether anything below
    // them is non-zero.
    const auto digit = [&digits](int i) {
        return i >= 0 ? static_cast<std::uint64_t>(digits[static_cast<std::size_t>(i)]) : 0u;
    };
    const U128 window =
        (static_cast<U128>(digit(top)) << 64) | (static_cast<U128>(digit(top - 1)) << 32) | digit(top - 2);
    const int lead = 127 - (window >> 64 ? std::countl_zero(static_cast<std::uint64_t>(window >> 64))
                                         : 64 + std::countl_zero(static_cast<std::uint64_t>(window)));
    const int drop = lead - 63;  // bits of the window below the 64 kept
    std::uint64_t m = 0;
    bool sticky = false;
    if (drop > 0) {
        m = static_cast<std::uint64_t>(window >> drop);
        sticky = (window & ((static_cast<U128>(1) << drop) - 1)) != 0;
    } else {
        m = static_cast<std::uint64_t>(window);
    }
    for (int i = top - 3; i >= 0 && !sticky; --i)
        sticky = digits[static_cast<std::size_t>(i)] != 0;
    // The window's lowest bit weighs 2^(32 (top - 2) - 1074).
    const int e = 32 * (top - 2) - 1074 + std::max(drop, 0);
    return roundScaled(format, negative, m, e, sticky);
}

}  // namespace logitlab::engine
