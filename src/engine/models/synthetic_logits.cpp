#include "engine/models/synthetic_logits.h"

#include "engine/rng/mersenne_twister.h"

#include <cmath>
#include <numbers>

namespace logitlab::engine {

Eigen::ArrayXd zipfLogits(std::int64_t vocabulary, double exponent)
{
    Eigen::ArrayXd logits(vocabulary);
    for (Eigen::Index i = 0; i < vocabulary; ++i)
        logits[i] = -exponent * std::log(static_cast<double>(i + 1));
    return logits;
}

Eigen::ArrayXd normalLogits(std::int64_t vocabulary, double sigma, std::uint64_t seed)
{
    // Box-Muller by hand: Boost's and the standard library's normal distributions are free to
    // change their algorithm, which would silently change every seeded vocabulary.
    Mt19937_64 engine(seed);
    Eigen::ArrayXd logits(vocabulary);
    for (Eigen::Index i = 0; i < vocabulary; i += 2) {
        const double u1 = 1.0 - engine.nextDouble();  // (0, 1]: log stays finite
        const double u2 = engine.nextDouble();
        const double radius = sigma * std::sqrt(-2.0 * std::log(u1));
        logits[i] = radius * std::cos(2.0 * std::numbers::pi * u2);
        if (i + 1 < vocabulary)
            logits[i + 1] = radius * std::sin(2.0 * std::numbers::pi * u2);
    }
    return logits;
}

}  // namespace logitlab::engine
