// Top-p (nucleus): keeps the most probable tokens until their total reaches p, crossing token
// included. The lesson's form is "first running total strictly above p" on the probabilities it
// already has; llama.cpp, Hugging Face and vLLM all keep a token iff the mass strictly more
// probable than it is below p (LogitLab evaluates that in double with a 1e-12 boundary tolerance).
// In `library` arithmetic each library's own float32 loop decides instead (docs/semantics.md).
#pragma once

#include "engine/stages/sampler_stage.h"

namespace logitlab::engine {

class TopPStage final : public StageBase<TopPStage> {
public:
    explicit TopPStage(Semantics semantics);
    std::string name() const override { return "top-p"; }
    std::optional<std::string> validate() const override;
    bool active() const override;
    void apply(CandidateArray& candidates, SamplerContext& context) override;

private:
    void applyLibrary(CandidateArray& candidates, SamplerContext& context, std::size_t keep) const;
    void noteCutAfter(const CandidateArray& candidates, SamplerContext& context, std::size_t count, double cut) const;
};

}  // namespace logitlab::engine
