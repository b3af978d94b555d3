#include "engine/core/number_format.h"

#include <charconv>
#include <cmath>

namespace logitlab::engine {

std::string formatDouble(double value)
{
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value < 0 ? "-inf" : "inf";
    char buffer[64];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    (void)ec;  // 64 characters always suffice for the shortest form of a double
    return std::string(buffer, end);
}

}  // namespace logitlab::engine
