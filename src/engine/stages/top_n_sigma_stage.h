// Top-n-sigma (llama.cpp): masks logits below max - n * sigma, with the mean and the population
// sigma taken over the finite logits only. Masked tokens stay in the array at -inf.
#pragma once

#include "engine/stages/sampler_stage.h"

namespace logitlab::engine {

class TopNSigmaStage final : public StageBase<TopNSigmaStage> {
public:
    explicit TopNSigmaStage(Semantics semantics);
    std::string name() const override { return "top-n-sigma"; }
    std::optional<std::string> validate() const override;
    bool active() const override { return number("n") > 0.0; }
    void apply(CandidateArray& candidates, SamplerContext& context) override;
};

}  // namespace logitlab::engine
