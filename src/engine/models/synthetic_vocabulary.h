// Synthetic next-token distributions for trying the sampler on realistic vocabulary sizes:
// Zipf(s) logits (a rank-frequency law like real text) or normal(mu, sigma) logits, over V
// tokens, reproducible from a seed on every platform (no std:: distributions, whose algorithms
// differ between standard libraries). Built on synthetic_logits.h, which the experiments use.
#pragma once

#include "engine/sampler/distribution.h"

#include <cstdint>
#include <optional>
#include <string>

namespace logitlab::engine {

constexpr int kMaxVocabularySize = 262'144;

struct SyntheticSpec {
    enum class Shape { Zipf, Normal };
    Shape shape = Shape::Zipf;
    int size = 32'000;       // V, 2..kMaxVocabularySize
    double exponent = 1.1;   // Zipf s > 0: the token of rank r gets logit -s * ln(r)
    double mean = 0.0;       // normal mu
    double deviation = 2.0;  // normal sigma > 0
    std::uint64_t seed = 1;  // Zipf: which id gets which rank; normal: the draws
};

// A message naming the offending field, or nothing.
std::optional<std::string> validateSynthetic(const SyntheticSpec& spec);

// Precondition: validateSynthetic(spec) passed. Tokens are named "t<id>".
Distribution syntheticVocabulary(const SyntheticSpec& spec);

}  // namespace logitlab::engine
