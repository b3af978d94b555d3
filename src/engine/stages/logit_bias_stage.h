// Logit bias: adds a fixed value to chosen tokens' logits (-inf bans a token). Every library has
// it in front of the other samplers.
#pragma once

#include "engine/stages/sampler_stage.h"

#include <map>

namespace logitlab::engine {

class LogitBiasStage final : public StageBase<LogitBiasStage> {
public:
    explicit LogitBiasStage(Semantics semantics);
    std::string name() const override { return "logit-bias"; }
    bool active() const override { return !m_bias.empty(); }
    void apply(CandidateArray& candidates, SamplerContext& context) override;

    // Error when a biased id is outside the vocabulary.
    std::optional<std::string> checkVocabulary(std::size_t vocabSize) const;

protected:
    void parametersChanged() override;

private:
    std::map<std::int32_t, double> m_bias;
};

}  // namespace logitlab::engine
