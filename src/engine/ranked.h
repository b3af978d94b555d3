// Internal: (probability, id) pairs for candidates(): the ids gathered from the exps, and their
// order, descending probability with lower ids first on ties (the order a stable sort gives in
// the lesson).
#pragma once

#include "cpu_features.h"

#include <cstdint>
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

// Sorts `items`, given in id order with p >= +0 (no NaN), by rankedBefore: a radix sort on p's
// bits, stable, so ties keep their id order. `scratch` is working space of any contents.
void sortRanked(std::vector<Ranked>& items, std::vector<Ranked>& scratch);

}  // namespace logitlab::engine::detail
