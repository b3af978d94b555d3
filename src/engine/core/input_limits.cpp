#include "engine/core/input_limits.h"

namespace logitlab::engine {

std::size_t utf8Length(std::string_view text)
{
    std::size_t n = 0;
    for (const char c : text)
        n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
    return n;
}

std::optional<std::string> tokenNameProblem(std::string_view name)
{
    const std::size_t length = utf8Length(name);
    if (length <= kMaxTokenNameChars)
        return std::nullopt;
    return "is " + groupedNumber(length) + " characters long; token names are limited to " +
           groupedNumber(kMaxTokenNameChars);
}

std::string groupedNumber(std::size_t value)
{
    std::string digits = std::to_string(value);
    for (std::ptrdiff_t i = static_cast<std::ptrdiff_t>(digits.size()) - 3; i > 0; i -= 3)
        digits.insert(static_cast<std::size_t>(i), ",");
    return digits;
}

}  // namespace logitlab::engine
