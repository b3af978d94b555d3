// Min-p: keeps tokens with p >= min_p * p_max. llama.cpp tests it on logits (l >= l_max + ln
// min_p, keeping token order, with a sorted fallback that honours min_keep and always keeps the
// top token); Hugging Face and vLLM compare probabilities and mask in place.
#pragma once

#include "engine/stages/sampler_stage.h"

namespace logitlab::engine {

class MinPStage final : public StageBase<MinPStage> {
public:
    explicit MinPStage(Semantics semantics);
    std::string name() const override { return "min-p"; }
    std::optional<std::string> validate() const override;
    bool active() const override { return number("p") > 0.0; }
    void apply(CandidateArray& candidates, SamplerContext& context) override;

private:
    // `library` arithmetic: llama.cpp's float logit threshold, or torch's float32 probabilities.
    void applyLibrary(CandidateArray& candidates, SamplerContext& context, std::size_t keep) const;
};

}  // namespace logitlab::engine
