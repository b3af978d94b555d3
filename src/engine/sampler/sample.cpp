#include "engine/sampler/sample.h"

#include <cassert>

namespace logitlab::engine {

std::int32_t sampleAt(const CandidateList& list, double uniform)
{
    assert(!list.empty());
    double r = uniform;
    for (const Candidate& c : list) {
        r -= c.p;
        if (r <= 0.0)
            return c.id;
    }
    return list.back().id;
}

std::int32_t sample(const CandidateList& list, Rng& rng) { return sampleAt(list, rng.nextDouble()); }

}  // namespace logitlab::engine
