// The lesson's die roll made fast for many draws from one candidate list, with results
// identical to sampleAt(): binary search on prefix sums, and the exact sequential walk whenever
// the uniform number lands so close to a prefix sum that rounding could decide the outcome.
//
// Why this is exact: the walk computes r = ((u - p0) - p1) - ... and stops at the first r <= 0.
// Each rounded subtraction is off by at most 2^-53 (all values lie in [-1, 1]), and so is each
// rounded prefix sum s_i, so r_i and u - s_i have the same strict sign whenever
// |u - s_i| > (2i + 2) * 2^-53. Outside that band the binary search's answer is the walk's.
#pragma once

#include "engine/sampler/candidate.h"

#include <cstdint>
#include <vector>

namespace logitlab::engine {

class CumulativeWalk {
public:
    explicit CumulativeWalk(CandidateList list);

    // Index into the list (not the token id) that sampleAt(list, uniform) would pick.
    std::size_t indexAt(double uniform) const;
    std::int32_t idAt(double uniform) const { return m_list[indexAt(uniform)].id; }

    const CandidateList& list() const { return m_list; }

private:
    std::size_t walk(double uniform) const;

    CandidateList m_list;
    std::vector<double> m_prefix;  // m_prefix[i] = p0 + ... + pi, summed left to right
    double m_band;                 // half-width of the band where the exact walk decides
};

}  // namespace logitlab::engine
