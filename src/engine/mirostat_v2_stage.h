// Mirostat v2 (llama.cpp): keeps the leading tokens whose surprise -log2 p is at most mu (at least
// one), renormalises, and after each draw moves mu by eta * (observed surprise - tau).
#pragma once

#include "sampler_stage.h"

namespace logitlab::engine {

class MirostatV2Stage final : public StageBase<MirostatV2Stage> {
public:
    explicit MirostatV2Stage(Semantics semantics);
    std::string name() const override { return "mirostat-v2"; }
    std::optional<std::string> validate() const override;
    void apply(CandidateArray& candidates, SamplerContext& context) override;
    void accept(const CandidateArray& final, std::size_t index, SamplerContext& context) override;
    void reset() override { m_mu = 2.0 * number("tau"); }
    double mu() const { return m_mu; }

protected:
    void parametersChanged() override { reset(); }

private:
    double m_mu = 10.0;
};

}  // namespace logitlab::engine
