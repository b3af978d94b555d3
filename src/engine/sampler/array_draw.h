// Many draws from one finished candidate array by a preset's rule, each giving exactly what
// drawIndex() gives for the same generator state: the lesson's walk through CumulativeWalk,
// llama.cpp's and hf's running-sum rules through a binary search on the same running sums
// (they are summed in the same order, so the first index passing u * total is the same), and
// vLLM's exponential race as it is (one exponential per candidate and draw).
#pragma once

#include "engine/rng/rng.h"
#include "engine/sampler/candidate_array.h"
#include "engine/sampler/cumulative_walk.h"
#include "engine/sampler/semantics.h"

#include <optional>
#include <vector>

namespace logitlab::engine {

class ArrayDraw {
public:
    // Precondition: final is not empty and its p are a softmax over its entries.
    ArrayDraw(CandidateArray final, Semantics semantics);

    std::size_t draw(Rng& rng) const;  // an index into array()
    const CandidateArray& array() const { return m_array; }

private:
    std::size_t lastPositive() const;

    CandidateArray m_array;
    Semantics m_semantics;
    std::optional<CumulativeWalk> m_walk;  // the lesson
    std::vector<double> m_prefix;          // llama.cpp, hf: p0 + ... + pi in array order
};

}  // namespace logitlab::engine
