// IEEE 754 half precision (float16) and bfloat16 bit patterns to double, exactly: every value
// of both formats is a double, so no rounding happens here.
#pragma once

#include <cstdint>

namespace logitlab::engine {

double halfToDouble(std::uint16_t bits);
double bfloat16ToDouble(std::uint16_t bits);

}  // namespace logitlab::engine
