// An ordered list of stages that is itself a stage. run() takes raw logits to a finished
// candidate array (p renormalised over the survivors); drawAndAccept() makes the final random
// pick and lets stateful stages (mirostat, penalties, DRY, XTC) see it, as in a real decode.
#pragma once

#include "engine/sampler/candidate_array.h"
#include "engine/stages/sampler_stage.h"

#include <memory>
#include <vector>

namespace logitlab::engine {

class SamplerChain final : public SamplerStage {
public:
    explicit SamplerChain(Semantics semantics) : SamplerStage(semantics) {}
    SamplerChain(const SamplerChain& other);
    SamplerChain& operator=(const SamplerChain& other);
    SamplerChain(SamplerChain&&) noexcept = default;
    SamplerChain& operator=(SamplerChain&&) noexcept = default;
    ~SamplerChain() override = default;

    std::string name() const override { return "chain"; }
    void add(std::unique_ptr<SamplerStage> stage)
    {
        stage->setArithmetic(arithmetic());
        m_stages.push_back(std::move(stage));
    }
    const std::vector<std::unique_ptr<SamplerStage>>& stages() const { return m_stages; }
    // The stages that do something with their values (an "off" value leaves a stage out).
    std::vector<const SamplerStage*> activeStages() const;
    // True when a draw changes what the next run gives (history, mirostat's mu, XTC's coin).
    bool stateful() const;

    std::optional<std::string> validate() const override;
    bool active() const override { return !activeStages().empty(); }
    void apply(CandidateArray& candidates, SamplerContext& context) override;
    void accept(const CandidateArray& final, std::size_t index, SamplerContext& context) override;
    void reset() override;
    void setRng(const Rng& prototype) override;
    void setArithmetic(Arithmetic arithmetic) override;
    std::unique_ptr<SamplerStage> clone() const override { return std::make_unique<SamplerChain>(*this); }
    std::size_t heldHistoryTokens() const override;

    // Builds the array from the logits (an exact top-k first selects straight from them), applies
    // the active stages and renormalises: the final softmax the draw uses. llama.cpp leaves masked
    // tokens in the array at p = 0; the other presets drop them.
    CandidateArray run(const float* logits, std::size_t n, SamplerContext& context);
    CandidateArray run(const double* logits, std::size_t n, SamplerContext& context);

    // Draws from a finished array by the preset's rule, tells the stages, appends the token to the
    // history, and returns the token id.
    std::int32_t drawAndAccept(const CandidateArray& final, Rng& rng, SamplerContext& context);

private:
    template <class Scalar>
    CandidateArray runOn(const Scalar* logits, std::size_t n, SamplerContext& context);
    void finish(CandidateArray& candidates) const;

    std::vector<std::unique_ptr<SamplerStage>> m_stages;
};

}  // namespace logitlab::engine
