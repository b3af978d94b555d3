// Temperature: divides every logit by T. What T <= 0 means is the preset's rule: greedy over the
// current candidates (llama.cpp, the lesson's T = 0, vLLM below 1e-5) or an error (Hugging Face).
#pragma once

#include "sampler_stage.h"

namespace logitlab::engine {

class TemperatureStage final : public StageBase<TemperatureStage> {
public:
    explicit TemperatureStage(Semantics semantics);
    std::string name() const override { return "temperature"; }
    std::optional<std::string> validate() const override;
    bool active() const override { return number("t") != 1.0; }
    void apply(CandidateArray& candidates, SamplerContext& context) override;

    // vLLM treats temperatures below this as greedy (and divides by 1 instead).
    static constexpr double kVllmGreedyBelow = 1e-5;
};

// Divides the logits by t > 0 and records the scale for p_raw (shared with dynamic temperature).
void divideLogits(CandidateArray& candidates, SamplerContext& context, double t);

}  // namespace logitlab::engine
