// N draws from one candidate list with the lesson's die roll, counted per candidate: the
// Explorer's "Draw" compares these counts with N * p.
#pragma once

#include "engine/rng/rng.h"
#include "engine/sampler/candidate.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace logitlab::engine {

struct DrawCounts {
    std::vector<std::uint64_t> counts;  // per position in the candidate list
    std::uint64_t draws = 0;            // how many were made (fewer than asked when stopped)
};

// Uses sample(list, rng), so seeded runs match the lesson's JavaScript draw for draw. `stop` is
// polled every 65,536 draws. Precondition: list is not empty.
DrawCounts drawCounts(const CandidateList& list, std::uint64_t n, Rng& rng, const std::function<bool()>& stop = {});

}  // namespace logitlab::engine
