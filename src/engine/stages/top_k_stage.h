// Top-k. llama.cpp and the lesson keep exactly k (ties at the cut broken by array order, i.e.
// lower id first: LogitLab's deterministic choice where llama.cpp's partial sort is arbitrary);
// Hugging Face and vLLM keep every token tied with the k-th largest logit.
#pragma once

#include "engine/stages/sampler_stage.h"

namespace logitlab::engine {

class TopKStage final : public StageBase<TopKStage> {
public:
    explicit TopKStage(Semantics semantics);
    std::string name() const override { return "top-k"; }
    std::optional<std::string> validate() const override;
    bool active() const override;
    void apply(CandidateArray& candidates, SamplerContext& context) override;

    // True when this stage, run first on the raw logits, can select without building the whole
    // array (exact-k rule, k < n): the fast path of llama.cpp-style chains.
    bool canSelectFromLogits(std::size_t n) const;
    // The k best of raw logits by a bounded heap, sorted descending: no softmax, no full copy.
    CandidateArray selectFromLogits(const float* logits, std::size_t n) const;
    CandidateArray selectFromLogits(const double* logits, std::size_t n) const;
};

}  // namespace logitlab::engine
