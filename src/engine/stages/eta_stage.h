// Eta sampling (Hugging Face only): removes tokens with p < min(epsilon, sqrt(epsilon) * exp(-H)),
// the entropy H taken over the current distribution (0 * ln 0 counts as 0, like HF's nansum).
#pragma once

#include "engine/stages/sampler_stage.h"

namespace logitlab::engine {

class EtaStage final : public StageBase<EtaStage> {
public:
    explicit EtaStage(Semantics semantics);
    std::string name() const override { return "eta"; }
    std::optional<std::string> validate() const override;
    bool active() const override { return number("epsilon") != 0.0; }
    void apply(CandidateArray& candidates, SamplerContext& context) override;
};

}  // namespace logitlab::engine
