// Greedy: keeps the largest logit only; the first maximal entry in array order wins ties, as in
// llama.cpp's strict '>' scan and torch.argmax.
#pragma once

#include "engine/stages/sampler_stage.h"

namespace logitlab::engine {

class GreedyStage final : public StageBase<GreedyStage> {
public:
    explicit GreedyStage(Semantics semantics) : StageBase(semantics) {}
    std::string name() const override { return "greedy"; }
    void apply(CandidateArray& candidates, SamplerContext& /*context*/) override
    {
        if (candidates.empty())
            return;
        const TokenData best = candidates[candidates.argmax()];
        candidates.data().assign(1, best);
    }
};

}  // namespace logitlab::engine
