// The arithmetic a chain decides its cuts in: `exact` (double with LogitLab's boundary tolerance:
// what the setting means) or `library` (each preset as its library computes: float32 softmax,
// running totals and thresholds in the library's order and formulas: what the server will do).
#pragma once

#include "engine/sampler/semantics.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace logitlab::engine {

enum class Arithmetic { Exact, Library };

std::string arithmeticName(Arithmetic arithmetic);  // "exact", "library"
std::optional<Arithmetic> parseArithmetic(std::string_view name);
const std::vector<Arithmetic>& allArithmetics();

// The preset's arithmetic when the user chose none: `exact` for every preset (docs/semantics.md,
// "Arithmetic", says why). The lesson has only its own double arithmetic: `library` is the same.
Arithmetic defaultArithmetic(Semantics semantics);

// The arithmetic a run uses: the user's choice ("exact", "library") or, when empty, the preset's
// default. An unknown name is not accepted here; the readers refuse it with its key.
Arithmetic resolveArithmetic(const std::string& choice, Semantics semantics);

}  // namespace logitlab::engine
