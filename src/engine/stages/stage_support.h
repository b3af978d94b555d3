// Internal helpers shared by the stage implementations: masking, entropy without NaN, the
// boundary tolerance, and the keep-the-top-min_keep rule of Hugging Face's warpers.
#pragma once

#include "engine/sampler/candidate_array.h"

#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>
#include <string_view>
#include <vector>

namespace logitlab::engine::detail {

inline constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// Cumulative sums within this distance of a cut count as reaching it. Probabilities computed
// from ln(p) logits carry a few ulp of error, so an exact-math boundary (0.5 + 0.3 = 0.8) would
// otherwise land on either side by accident (D6 in docs/semantics.md).
inline constexpr double kBoundaryTolerance = 1e-12;

// The result of arithmetic on a finite logit (bias, penalty, DRY) kept finite: an overflow to
// +-inf becomes +-DBL_MAX, as likely (or unlikely) as a double can make a token. -inf is kept
// only where a stage bans a token on purpose.
inline double saturated(double logit)
{
    constexpr double kMax = std::numeric_limits<double>::max();
    return logit > kMax ? kMax : (logit < -kMax ? -kMax : logit);
}

inline bool masked(const TokenData& t) { return t.logit == kNegInf; }

// Shannon entropy in nats of the current p, with 0 * ln 0 taken as its limit 0.
inline double entropy(const CandidateArray& a)
{
    double h = 0.0;
    for (const auto& t : a.data())
        if (t.p > 0.0)
            h -= t.p * std::log(t.p);
    return h;
}

// "a/b/c" -> {"a", "b", "c"}; an empty text gives one empty item.
std::vector<std::string_view> splitOn(std::string_view text, char separator);
std::string_view trimSpaces(std::string_view text);

// Indices of the array ordered by descending logit, ties in array order.
std::vector<std::size_t> orderByLogit(const CandidateArray& a);

// Masks entries flagged in `remove` (dense, HF style) except the `minKeep` highest by logit,
// then drops masked entries from the array; the survivors keep their order.
void removeExceptTop(CandidateArray& a, std::vector<bool> remove, std::size_t minKeep);

// Sets every entry but `keep` to -inf (llama.cpp's greedy temperature: they stay in the array).
void maskAllBut(CandidateArray& a, std::size_t keep);

}  // namespace logitlab::engine::detail
