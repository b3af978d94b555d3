// Temperature: divides every logit by T. What T <= 0 means is the preset's rule: greedy over the
// current candidates (llama.cpp, the lesson's T = 0, vLLM's T = 0) or an error (Hugging Face).
// vLLM's request validation raises a T in (0, 0.01) to 0.01 before its sampler sees it.
#pragma once

#include "engine/stages/sampler_stage.h"

namespace logitlab::engine {

class TemperatureStage final : public StageBase<TemperatureStage> {
public:
    explicit TemperatureStage(Semantics semantics);
    std::string name() const override { return "temperature"; }
    std::optional<std::string> validate() const override;
    bool active() const override { return number("t") != 1.0; }
    void apply(CandidateArray& candidates, SamplerContext& context) override;

    // vLLM's SamplingParams raises any temperature in (0, kVllmMinTemperature) to it (its
    // _MAX_TEMP, "maxed out" to avoid inf/NaN), so only T = 0 reaches its greedy rule
    // (T < 1e-5, _SAMPLING_EPS, which after the floor is T = 0 alone).
    static constexpr double kVllmMinTemperature = 0.01;
};

// The temperature the preset's library actually uses for a requested `t`: vLLM's floor above,
// `t` itself everywhere else.
double effectiveTemperature(Semantics semantics, double t);

// True when dividing by t > 0 would overflow a finite logit (or the chain's temperature scale):
// such a t acts as greedy, its T -> 0 limit, instead of producing inf - inf = NaN.
bool divisionOverflows(const CandidateArray& candidates, const SamplerContext& context, double t);

// Divides the logits by t > 0 and records the scale for p_raw (shared with dynamic temperature).
void divideLogits(CandidateArray& candidates, SamplerContext& context, double t);

}  // namespace logitlab::engine
