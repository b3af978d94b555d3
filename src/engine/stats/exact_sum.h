// The exact sum of doubles, correctly rounded once at the end: a fixed-point superaccumulator
// that covers the whole double range (2^-1074 .. 2^1024) in 32-bit digits held in 64-bit
// signed limbs, so each term is added without any rounding and carries are resolved only when
// the sum is read. Error-free for up to 2^31 finite terms, whatever their order or magnitude:
// [1, 1e100, 1, -1e100] sums to exactly 2. The reference every summation order is judged by.
#pragma once

#include "engine/kernels/float_formats.h"

#include <array>
#include <cstdint>
#include <span>

namespace logitlab::engine {

class ExactSum {
public:
    // Adds one finite term exactly (infinities and NaN are the caller's to refuse).
    void add(double x);
    void add(std::span<const double> xs);
    void add(std::span<const float> xs);

    // The exact sum rounded correctly (to nearest, ties to even) into `format`; an exact zero
    // is +0.
    double rounded(FloatFormat format) const;

    static constexpr std::int64_t kMaxTerms = std::int64_t{1} << 31;

private:
    // Digit i weighs 2^(32 i - 1074); 2098 bits of range plus room for carries.
    static constexpr int kLimbs = 68;
    std::array<std::int64_t, kLimbs> m_limbs{};
};

}  // namespace logitlab::engine
