// Mirostat v2 (llama.cpp): keeps the leading tokens whose surprise -log2 p is at most mu (at least
// one), renormalises, and after each draw moves mu by eta * (observed surprise - tau).
#pragma once

#include "engine/stages/mirostat_base.h"

namespace logitlab::engine {

class MirostatV2Stage final : public MirostatBase<MirostatV2Stage> {
public:
    explicit MirostatV2Stage(Semantics semantics) : MirostatBase(semantics) {}
    std::string name() const override { return "mirostat-v2"; }
    void apply(CandidateArray& candidates, SamplerContext& context) override;
};

}  // namespace logitlab::engine
