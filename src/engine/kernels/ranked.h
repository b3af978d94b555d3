// Internal: (probability, id) pairs for candidates(): the ids gathered from the exps, and their
// order, descending probability with lower ids first on ties (the order a stable sort gives in
// the lesson).
#pragma once

#include "engine/kernels/cpu_features.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace logitlab::engine::detail {

// A probability (or, while gathering, an exp) and its id, sorted together.
struct Ranked {
    // Does nothing, so that growing a workspace vector does not zero what is written next.
    Ranked() {}
    Ranked(double value, std::int32_t token) : p(value), id(token) {}
    double p;
    std::int32_t id;
};

// Descending probability, lower id first on ties. (A function object, not a function: the
// standard sorts then inline the comparison.)
inline constexpr auto rankedBefore = [](const Ranked& a, const Ranked& b) {
    return a.p > b.p || (a.p == b.p && a.id < b.id);
};

// Replaces `gathered` with (values[i], i) for every i whose value is at least `threshold`, in
// id order, with AVX2 compares where the processor has them (`avx2` = false forces SSE2; tests
// run both).
void gatherAtLeast(const std::vector<double>& values, double threshold, std::vector<Ranked>& gathered,
                   bool avx2 = hasAvx2());

// A float f such that no float32 logit l < f has an exp in the lesson's softmax,
// fdlibmExp(l / temperature - maxScaled), at or above `threshold` (> 0); nullopt when the
// arithmetic gives none. Why it holds: exp(x) < threshold for x below log(threshold) by far more
// than fdlibm's error (under an ulp) and std::log's, and l / T - max rounds monotonically in l, so
// the bound's own x, computed with the lesson's operations, bounds the x of every smaller logit.
std::optional<float> logitFloor(double threshold, double temperature, double maxScaled);

// gatherAtLeast(exps, threshold) for exps that came from float32 `logits` (exps[i] is the lesson's
// exp of logits[i]) with floor = logitFloor(threshold, ...): the scan compares the logits, half the
// bytes of the exps and eight to a register, and reads an exp only where the logit reaches the
// floor. The same ids, values and order as gatherAtLeast.
void gatherAtLeastByLogit(const float* logits, const std::vector<double>& exps, float floor, double threshold,
                          std::vector<Ranked>& gathered, bool avx2 = hasAvx2());

// Sorts `items`, given in id order with p >= +0 (no NaN), by rankedBefore: a bucket sort on p's
// bits, stable, so ties keep their id order. `scratch` is working space of any contents.
void sortRanked(std::vector<Ranked>& items, std::vector<Ranked>& scratch);

}  // namespace logitlab::engine::detail
