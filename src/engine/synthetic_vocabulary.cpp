#include "synthetic_vocabulary.h"

#include "mersenne_twister.h"

#include <cmath>
#include <numbers>
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
    Mt19937_64 rng(spec.seed);
    Distribution d;
    d.logits.resize(spec.size);
    if (spec.shape == SyntheticSpec::Shape::Zipf) {
        // Fisher-Yates with our own index rule, so the permutation is the same everywhere.
        std::vector<std::size_t> rankOf(n);
        std::iota(rankOf.begin(), rankOf.end(), std::size_t{1});
        for (std::size_t i = n - 1; i > 0; --i) {
            const auto j = static_cast<std::size_t>(rng.nextDouble() * static_cast<double>(i + 1));
            std::swap(rankOf[i], rankOf[std::min(j, i)]);
        }
        for (std::size_t id = 0; id < n; ++id)
            d.logits[static_cast<Eigen::Index>(id)] = -spec.exponent * std::log(static_cast<double>(rankOf[id]));
    } else {
        // Box-Muller on two uniforms; 1 - u keeps the logarithm's argument in (0, 1].
        for (std::size_t id = 0; id < n; id += 2) {
            const double u1 = 1.0 - rng.nextDouble();
            const double u2 = rng.nextDouble();
            const double radius = std::sqrt(-2.0 * std::log(u1));
            const double angle = 2.0 * std::numbers::pi * u2;
            d.logits[static_cast<Eigen::Index>(id)] = spec.mean + spec.deviation * radius * std::cos(angle);
            if (id + 1 < n)
                d.logits[static_cast<Eigen::Index>(id + 1)] = spec.mean + spec.deviation * radius * std::sin(angle);
        }
    }
    d.tokens.reserve(n);
    for (std::size_t id = 0; id < n; ++id)
        d.tokens.push_back("t" + std::to_string(id));
    return d;
}

}  // namespace logitlab::engine
