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

// True when dividing by t > 0 would overflow a finite logit (or the chain's temperature scale):
// such a t acts as greedy, its T -> 0 limit, instead of producing inf - inf = NaN.
bool divisionOverflows(const CandidateArray& candidates, const SamplerContext& context, double t);

// Divides the logits by t > 0 and records the scale for p_raw (shared with dynamic temperature).
void divideLogits(CandidateArray& candidates, SamplerContext& context, double t);

}  // namespace logitlab::engine
