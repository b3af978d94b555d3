// Locally typical sampling: ranks tokens by |-ln p - H| and keeps the most typical ones until
// their mass passes p. llama.cpp stops at the first total strictly above p and leaves the array
// in typicality order, un-renormalised; Hugging Face stops at the first total >= p and keeps
// every token whose score ties the boundary score (D4).
#pragma once

#include "engine/stages/sampler_stage.h"

namespace logitlab::engine {

class TypicalStage final : public StageBase<TypicalStage> {
public:
    explicit TypicalStage(Semantics semantics);
    std::string name() const override { return "typical"; }
    std::optional<std::string> validate() const override;
    bool active() const override { return number("p") < 1.0; }
    void apply(CandidateArray& candidates, SamplerContext& context) override;

private:
    // `library` arithmetic: llama.cpp's float loop, or Hugging Face's float32 tensor formulas.
    void applyLibrary(CandidateArray& candidates, SamplerContext& context, std::size_t keep) const;
};

}  // namespace logitlab::engine
