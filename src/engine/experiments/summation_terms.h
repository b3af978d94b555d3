// The terms of a summation-order experiment: drawn from a seeded distribution (normal,
// uniform, heavy-tailed Cauchy, or mixed magnitudes spanning eight decades with random signs),
// or read from text (a pasted list or a file). Draws use their own SplitMix64 stream and
// closed-form transforms, so the same seed gives the same terms on every machine with the
// same libm.
#pragma once

#include "engine/core/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace logitlab::engine {

enum class TermDistribution { Normal, Uniform, Cauchy, Mixed, List };

// "normal", "uniform", "cauchy", "mixed", "list".
std::string_view termDistributionName(TermDistribution distribution);
std::optional<TermDistribution> termDistributionFromName(std::string_view name);
std::vector<std::string> termDistributionNames();
// "normal(0, scale)", ... for provenance and the page.
std::string describeTermDistribution(TermDistribution distribution, double scale);

// n terms times `scale`: Normal N(0, 1) (Box-Muller), Uniform [0, 1), Cauchy (tan of a
// uniform angle, a heavy tail), Mixed (random sign times 10^U(-4, 4)). Not for List.
std::vector<double> generateTerms(TermDistribution distribution, std::size_t n, double scale, std::uint64_t seed);

// Numbers as text: one per line (commas also separate, so a pasted "1, 2, 3" reads); blank
// lines and lines starting with '#' are skipped. NaN and infinities are refused, as is an
// empty list; errors name the source and the line ("terms.txt:3: 'x' is not a number").
Result<std::vector<double>> parseTermsText(std::string_view text, std::string_view sourceName);

}  // namespace logitlab::engine
