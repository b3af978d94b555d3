// DRY, "don't repeat yourself" (llama.cpp): a token that would extend a sequence already repeated
// at least allowed-length times loses multiplier * base^(length - allowed-length) from its logit.
// Sequence breakers (token ids here: LogitLab has no tokenizer to expand strings) cap the length.
#pragma once

#include "sampler_stage.h"

#include <set>

namespace logitlab::engine {

class DryStage final : public StageBase<DryStage> {
public:
    explicit DryStage(Semantics semantics);
    std::string name() const override { return "dry"; }
    std::optional<std::string> validate() const override;
    bool active() const override;
    void apply(CandidateArray& candidates, SamplerContext& context) override;

protected:
    void parametersChanged() override;

private:
    std::set<std::int32_t> m_breakers;
};

}  // namespace logitlab::engine
