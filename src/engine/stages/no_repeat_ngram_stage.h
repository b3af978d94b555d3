// No-repeat-ngram (Hugging Face): bans every token that would complete an n-gram already present
// in the history, i.e. every token that once followed the history's last n-1 tokens.
#pragma once

#include "engine/stages/sampler_stage.h"

namespace logitlab::engine {

class NoRepeatNgramStage final : public StageBase<NoRepeatNgramStage> {
public:
    explicit NoRepeatNgramStage(Semantics semantics);
    std::string name() const override { return "no-repeat-ngram"; }
    std::optional<std::string> validate() const override;
    bool active() const override { return number("n") > 0; }
    void apply(CandidateArray& candidates, SamplerContext& context) override;
};

}  // namespace logitlab::engine
