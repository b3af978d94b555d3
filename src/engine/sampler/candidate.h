// One token that survived the sampler: its id and its probability after and before renormalising.
#pragma once

#include <cstdint>
#include <vector>

namespace logitlab::engine {

struct Candidate {
    std::int32_t id = 0;
    double p = 0.0;     // renormalised over the survivors: what the die is rolled on
    double pRaw = 0.0;  // softmax probability over the whole vocabulary, before any cut

    friend bool operator==(const Candidate&, const Candidate&) = default;
};

using CandidateList = std::vector<Candidate>;

}  // namespace logitlab::engine
