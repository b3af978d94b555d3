// Synthetic next-token distributions for experiments that need a realistic vocabulary size
// without a model: Zipf's law over V tokens, or independent normal logits.
#pragma once

#include <Eigen/Core>
#include <cstdint>

namespace logitlab::engine {

// p(rank r) proportional to 1 / r^exponent, r = 1..vocabulary; token id = rank - 1.
Eigen::ArrayXd zipfLogits(std::int64_t vocabulary, double exponent);

// Logits drawn from N(0, sigma^2) with mt19937_64 and Box-Muller, so a seed names one vocabulary.
Eigen::ArrayXd normalLogits(std::int64_t vocabulary, double sigma, std::uint64_t seed);

}  // namespace logitlab::engine
