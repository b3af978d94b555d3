// Internal: the softmax loops shared by softmax() and candidates(), templated on the storage
// type so float32 logits are widened to double element by element instead of copied.
#pragma once

#include "lesson_exp_sum.h"

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

// True when T > 0 is so small that max(l) / T is no longer a finite double (T = 1e-320 on logits
// of order 1): l/T - max would be inf - inf = NaN. Such a temperature is taken as its T -> 0
// limit, greedy (docs/engine.md).
inline bool scaledMaxOverflows(double maxLogit, double temperature)
{
    return temperature > 0.0 && std::isfinite(maxLogit) && !std::isfinite(maxLogit / temperature);
}

// Writes exp(l/T - max(l/T)) into out[0..n) and returns their sum, accumulated in id order:
// JavaScript's Math.exp and reduce, bit for bit (lesson_exp_sum.h).
// max(l/T) == max(l)/T exactly for T > 0 (division is monotonic), so one pass finds the max.
// When max(l)/T overflows, the limit: 1 at the argmax (lowest id), 0 elsewhere.
template <class Scalar>
double exponentiate(const Scalar* logits, std::size_t n, double temperature, double* out)
{
    const std::int32_t top = argmaxOf(logits, n);
    if (scaledMaxOverflows(static_cast<double>(logits[top]), temperature)) {
        for (std::size_t i = 0; i < n; ++i)
            out[i] = static_cast<std::size_t>(top) == i ? 1.0 : 0.0;
        return 1.0;
    }
    const double maxScaled = static_cast<double>(logits[top]) / temperature;
    return lessonExpSum(logits, n, temperature, maxScaled, out);
}

// Turns out[] from exponentiate() into probabilities.
inline void normalise(double* values, std::size_t n, double sum)
{
    for (std::size_t i = 0; i < n; ++i)
        values[i] /= sum;
}

}  // namespace logitlab::engine::detail
