// The four semantics presets: whose rules a chain follows (order, boundaries, ties, validation).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace logitlab::engine {

enum class Semantics { Lesson, LlamaCpp, Hf, Vllm };

std::string semanticsName(Semantics semantics);  // "lesson", "llama.cpp", "hf", "vllm"
std::optional<Semantics> parseSemantics(std::string_view name);
const std::vector<Semantics>& allSemantics();

}  // namespace logitlab::engine
