// What the lab reads off one column of LM-head logits: the argmax (lowest id on an exact
// tie, as greedy decoding does) and the gap to the runner-up, also merged tile by tile.
#pragma once

#include <Eigen/Core>

#include <cstdint>

namespace logitlab::engine {

struct TopTwo {
    std::int32_t token = 0;   // argmax
    std::int32_t second = 0;  // the runner-up
    double gap = 0.0;         // logit[token] - logit[second], >= 0
    float best = 0.0f;        // logit[token]
    float runnerUp = 0.0f;    // logit[second]
};

// `offset` is the id of logits[0] (a tile's first row).
TopTwo topTwo(const Eigen::Ref<const Eigen::VectorXf>& logits, std::int32_t offset = 0);
// The top two of two disjoint parts of a vocabulary, `low` holding the lower ids: the same as
// topTwo over the whole (ties to the lowest id).
TopTwo mergeTopTwo(const TopTwo& low, const TopTwo& high);

}  // namespace logitlab::engine
