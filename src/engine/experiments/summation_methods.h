// The orders a sum of N terms can be taken in, as real code takes them: left to right,
// reversed, sorted by magnitude, the pairwise rule of numpy's pairwise_sum, np.sum's blocked
// reduction (pairwise_sum on blocks of 8,192 terms, the blocks added in sequence), split-K, SIMD lanes, a
// multi-threaded reduction's chunks, Kahan and Neumaier compensation, and the exact sum. Each
// runs in a chosen accumulator format (float64, float32, bf16, f16): a term is rounded into the
// accumulator's format and every addition is rounded there, as a kernel working in that type
// does. Also one seeded random order (a shuffle), the lab's picture of "whatever order the
// kernel chose".
#pragma once

#include "engine/kernels/float_formats.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace logitlab::engine {

enum class SumMethod {
    LeftToRight,
    Reversed,
    AscendingMagnitude,
    DescendingMagnitude,
    Pairwise,
    NumpySum,
    Blocked,
    SimdLanes,
    Threads,
    Kahan,
    Neumaier,
    Exact,
};

// "left-to-right", "reversed", "ascending", "descending", "pairwise", "numpy-sum", "blocked", "simd",
// "threads", "kahan", "neumaier", "exact": the names files use.
std::string_view sumMethodName(SumMethod method);
std::optional<SumMethod> sumMethodFromName(std::string_view name);
std::vector<SumMethod> allSumMethods();
std::vector<std::string> sumMethodNames();
// One line: what the order is, with its shape ("8 lanes, then halved").
std::string describeSumMethod(SumMethod method, int split, int lanes, int threads);

// The shape parameters of the orders that have one.
struct SumShape {
    int split = 4;    // Blocked: contiguous splits of ceil(N / split) terms
    int lanes = 8;    // SimdLanes: a power of two
    int threads = 4;  // Threads: balanced contiguous chunks, combined in thread order
};

// The sum of `terms` (already in their storage format) in `method`'s order, accumulated in
// `accumulator`. An empty list sums to 0. Exact ignores the order: the correctly rounded sum.
// np.sum / np.add.reduce of a contiguous 1-D array hands pairwise_sum at most this many terms
// at a time (the ufunc machinery's buffer size) and adds each block's sum to the running total.
inline constexpr std::size_t kNumpyBlock = 8192;

double sumInOrder(SumMethod method, std::span<const double> terms, FloatFormat accumulator, const SumShape& shape);

// The terms in one seeded random order (Fisher-Yates with a SplitMix64 stream of its own and
// Lemire's bounded integers), summed left to right as they are drawn. `scratch` is reused
// between calls (it is overwritten with a copy of the terms); the result depends only on the
// terms, the format and the seed. Float terms are for storage formats of 32 bits or fewer.
double shuffledSum(std::span<const float> terms, FloatFormat accumulator, std::uint64_t seed,
                   std::vector<float>& scratch);
double shuffledSum(std::span<const double> terms, FloatFormat accumulator, std::uint64_t seed,
                   std::vector<double>& scratch);

}  // namespace logitlab::engine
