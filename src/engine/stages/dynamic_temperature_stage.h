// Dynamic temperature (llama.cpp's temp_ext): with delta > 0 the temperature moves inside
// [max(0, T - delta), T + delta] with the normalised entropy of the current candidates raised to
// `exponent`; with delta <= 0 it is plain temperature (llama.cpp rules for T <= 0).
#pragma once

#include "engine/stages/sampler_stage.h"

namespace logitlab::engine {

class DynamicTemperatureStage final : public StageBase<DynamicTemperatureStage> {
public:
    explicit DynamicTemperatureStage(Semantics semantics);
    std::string name() const override { return "dynamic-temperature"; }
    std::optional<std::string> validate() const override;
    bool active() const override { return number("delta") > 0.0 || number("t") != 1.0; }
    void apply(CandidateArray& candidates, SamplerContext& context) override;

    double lastTemperature() const { return m_last; }  // the T the last apply() used

private:
    // llama_sampler_temp_ext_apply in float: its T, range, entropy and power in float, the logits
    // divided in float, the probabilities recomputed with a double sum as it does.
    void applyLibrary(CandidateArray& candidates, SamplerContext& context);

    double m_last = 1.0;
};

}  // namespace logitlab::engine
