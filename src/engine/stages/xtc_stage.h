// XTC, "exclude top choices" (llama.cpp): with the given probability, removes every token at or
// above the threshold except the least probable of them. The coin comes from the stage's own
// engine, a copy of the chain's (llama.cpp seeds XTC and dist alike but keeps separate engines).
#pragma once

#include "engine/rng/rng_handle.h"
#include "engine/stages/sampler_stage.h"

namespace logitlab::engine {

class XtcStage final : public StageBase<XtcStage> {
public:
    explicit XtcStage(Semantics semantics);
    std::string name() const override { return "xtc"; }
    std::optional<std::string> validate() const override;
    bool active() const override { return number("probability") > 0.0 && number("threshold") <= 0.5; }
    void apply(CandidateArray& candidates, SamplerContext& context) override;
    void reset() override { m_rng.reset(); }
    void setRng(const Rng& prototype) override { m_rng = RngHandle(prototype); }

private:
    RngHandle m_rng;
};

}  // namespace logitlab::engine
