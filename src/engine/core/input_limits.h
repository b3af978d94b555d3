// The limits every reader of logits and token names applies, in one place so the CLI, experiment
// files and the GUI agree (docs/experiments.md, "Limits"). They bound memory and time for input
// from outside: a file of 10^8 logits or a token name of 10^6 characters is refused with its size
// and the limit named, instead of being read until the machine runs out of memory.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace logitlab::engine {

// Logits (or probabilities) in one distribution, from any source.
inline constexpr std::size_t kMaxValues = std::size_t{1} << 20;  // 1,048,576
// Characters (Unicode code points) in one token name. Real vocabularies stay far below this; a
// name that long is a broken file, and the GUI would lay out every character of it.
inline constexpr std::size_t kMaxTokenNameChars = 1024;
// Bytes in one input file (logits files, experiment files, Explorer state files): 1,048,576
// values with names of typical length fit with room to spare.
inline constexpr std::size_t kMaxInputFileBytes = std::size_t{64} << 20;  // 64 MiB

// Code points in UTF-8 text (continuation bytes are not counted; invalid bytes count as one each).
std::size_t utf8Length(std::string_view text);

// "is 100,000 characters long; token names are limited to 1,024" when `name` is too long.
std::optional<std::string> tokenNameProblem(std::string_view name);

// "1,048,576": whole numbers in messages about sizes and limits, with thousands separators.
std::string groupedNumber(std::size_t value);

}  // namespace logitlab::engine
