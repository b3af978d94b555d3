// Mirostat v1 (llama.cpp): estimates the Zipf exponent from the top m tokens, turns the target
// surprise mu into a k, keeps that top-k and renormalises. After each draw mu moves by
// eta * (observed surprise - tau); it starts at 2 * tau and reset() restores that.
#pragma once

#include "engine/stages/mirostat_base.h"

namespace logitlab::engine {

class MirostatV1Stage final : public MirostatBase<MirostatV1Stage> {
public:
    explicit MirostatV1Stage(Semantics semantics);
    std::string name() const override { return "mirostat-v1"; }
    std::optional<std::string> validate() const override;
    void apply(CandidateArray& candidates, SamplerContext& context) override;
};

}  // namespace logitlab::engine
