// Epsilon sampling (Hugging Face only): removes tokens with p < epsilon, keeping the min_keep
// highest-scoring ones.
#pragma once

#include "engine/stages/sampler_stage.h"

namespace logitlab::engine {

class EpsilonStage final : public StageBase<EpsilonStage> {
public:
    explicit EpsilonStage(Semantics semantics);
    std::string name() const override { return "epsilon"; }
    std::optional<std::string> validate() const override;
    bool active() const override { return number("epsilon") != 0.0; }
    void apply(CandidateArray& candidates, SamplerContext& context) override;
};

// Shared by epsilon and eta: validation of (0, 1), the HF-only rule, and the cut itself.
std::optional<std::string> validateCutoffStage(const SamplerStage& stage, const std::string& hfName);
// `p` must hold the probabilities; `tolerance` is the exact arithmetic's boundary tolerance (0 in
// library arithmetic, where p and the cutoff are float32 numbers compared as torch does).
void removeBelow(CandidateArray& candidates, double cutoff, std::size_t minKeep, double tolerance,
                 SamplerContext& context, const std::string& stage);

}  // namespace logitlab::engine
