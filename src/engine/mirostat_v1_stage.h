// Mirostat v1 (llama.cpp): estimates the Zipf exponent from the top m tokens, turns the target
// surprise mu into a k, keeps that top-k and renormalises. After each draw mu moves by
// eta * (observed surprise - tau); it starts at 2 * tau and reset() restores that.
#pragma once

#include "sampler_stage.h"

namespace logitlab::engine {

class MirostatV1Stage final : public StageBase<MirostatV1Stage> {
public:
    explicit MirostatV1Stage(Semantics semantics);
    std::string name() const override { return "mirostat-v1"; }
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

// Shared by both versions: HF and vLLM have no mirostat; tau and eta must be finite.
std::optional<std::string> validateMirostat(const SamplerStage& stage);
// mu <- mu - eta * (-log2 p - tau), skipped for p = 0 (a zero draw can land on it).
void updateMu(double& mu, const SamplerStage& stage, double p);

}  // namespace logitlab::engine
