// Repetition, frequency and presence penalties over the token history. llama.cpp looks at the
// last `last-n` tokens and applies all three; Hugging Face applies the repetition penalty alone
// over the whole history; vLLM applies all three over the whole history (D7). A token is
// penalised once however often it occurs: logit <= 0 is multiplied, logit > 0 divided.
#pragma once

#include "engine/stages/sampler_stage.h"

namespace logitlab::engine {

class PenaltiesStage final : public StageBase<PenaltiesStage> {
public:
    explicit PenaltiesStage(Semantics semantics);
    std::string name() const override { return "penalties"; }
    std::optional<std::string> validate() const override;
    bool active() const override;
    void apply(CandidateArray& candidates, SamplerContext& context) override;
};

}  // namespace logitlab::engine
