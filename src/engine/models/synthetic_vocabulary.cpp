#include "engine/models/synthetic_vocabulary.h"

#include "engine/models/synthetic_logits.h"
#include "engine/rng/mersenne_twister.h"

#include <cmath>
#include <numeric>
#include <vector>

namespace logitlab::engine {

std::optional<std::string> validateSynthetic(const SyntheticSpec& spec)
{
    if (spec.size < 2 || spec.size > kMaxVocabularySize)
        return "vocabulary size: must be between 2 and " + std::to_string(kMaxVocabularySize) + ", got " +
               std::to_string(spec.size);
    if (spec.shape == SyntheticSpec::Shape::Zipf && !(spec.exponent > 0.0 && std::isfinite(spec.exponent)))
        return "Zipf exponent s: must be a positive number";
    if (spec.shape == SyntheticSpec::Shape::Normal) {
        if (!std::isfinite(spec.mean))
            return "normal mean: must be a finite number";
        if (!(spec.deviation > 0.0 && std::isfinite(spec.deviation)))
            return "normal sigma: must be a positive number";
    }
    return std::nullopt;
}

Distribution syntheticVocabulary(const SyntheticSpec& spec)
{
    const auto n = static_cast<std::size_t>(spec.size);
    Distribution d;
    if (spec.shape == SyntheticSpec::Shape::Zipf) {
        // zipfLogits puts rank r at id r - 1; a seeded shuffle spreads the ranks over the ids like
        // a real vocabulary. Fisher-Yates with our own index rule: the same permutation everywhere.
        const Eigen::ArrayXd byRank = zipfLogits(spec.size, spec.exponent);
        std::vector<Eigen::Index> rankOf(n);
        std::iota(rankOf.begin(), rankOf.end(), Eigen::Index{0});
        Mt19937_64 rng(spec.seed);
        for (std::size_t i = n - 1; i > 0; --i) {
            const auto j = static_cast<std::size_t>(rng.nextDouble() * static_cast<double>(i + 1));
            std::swap(rankOf[i], rankOf[std::min(j, i)]);
        }
        d.logits.resize(spec.size);
        for (std::size_t id = 0; id < n; ++id)
            d.logits[static_cast<Eigen::Index>(id)] = byRank[rankOf[id]];
    } else {
        d.logits = spec.mean + normalLogits(spec.size, spec.deviation, spec.seed);
    }
    d.tokens.reserve(n);
    for (std::size_t id = 0; id < n; ++id)
        d.tokens.push_back("t" + std::to_string(id));
    return d;
}

}  // namespace logitlab::engine
