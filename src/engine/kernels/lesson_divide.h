// Internal: the lesson's `exps.map(e => e / sum)`, one correctly rounded quotient per value, for
// the softmax. With FMA, a quotient by a constant divisor needs no division instruction
// (Markstein's theorem: with y = RN(1 / d) and q = RN(a y), within an ulp of a / d, the residual
// r = a - d q is exact in one FMA and RN(q + r y) is RN(a / d)); the divider is the slowest unit
// of the processors this runs on (constant_quotient.h). Lanes out of the theorem's range
// (underflow of the residual, overflow) are divided.
#pragma once

#include <cstddef>

namespace logitlab::engine::detail {

enum class DividePath { Auto, Divide, Fma };

// Whether the processor has AVX2 and FMA, which the Fma path needs.
bool fmaAvailable();

// values[i] = values[i] / divisor, each bit for bit the IEEE quotient.
void divideBy(double* values, std::size_t n, double divisor, DividePath path = DividePath::Auto);

// The same for one double member of n structs `stride` bytes apart, `first` pointing at the
// first struct's member (e.g. &items[0].p): candidates() divides its survivors in place. One
// lane at a time; the other bytes of the structs are left alone.
void divideMemberBy(double* first, std::size_t n, std::size_t stride, double divisor,
                    DividePath path = DividePath::Auto);

}  // namespace logitlab::engine::detail
