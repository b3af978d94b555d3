// Internal: the softmax loops shared by softmax() and candidates(), templated on the storage
// type so float32 logits are widened to double element by element instead of copied.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace logitlab::engine::detail {

template <class Scalar>
std::int32_t argmaxOf(const Scalar* logits, std::size_t n)
{
    std::size_t best = 0;
    for (std::size_t i = 1; i < n; ++i)
        if (logits[i] > logits[best])  // strict: the first maximum wins
            best = i;
    return static_cast<std::int32_t>(best);
}

// Writes exp(l/T - max(l/T)) into out[0..n) and returns their sum, accumulated in id order.
// max(l/T) == max(l)/T exactly for T > 0 (division is monotonic), so one pass finds the max.
template <class Scalar>
double exponentiate(const Scalar* logits, std::size_t n, double temperature, double* out)
{
    const double maxScaled = static_cast<double>(logits[argmaxOf(logits, n)]) / temperature;
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        out[i] = std::exp(static_cast<double>(logits[i]) / temperature - maxScaled);
        sum += out[i];
    }
    return sum;
}

// Turns out[] from exponentiate() into probabilities.
inline void normalise(double* values, std::size_t n, double sum)
{
    for (std::size_t i = 0; i < n; ++i)
        values[i] /= sum;
}

}  // namespace logitlab::engine::detail
