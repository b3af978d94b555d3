// The built-in n-gram model as the loop's logits source: free running, each step's logits
// after the prompt and the tokens picked so far.
#pragma once

#include "engine/models/ngram_model.h"
#include "engine/models/step_logits_source.h"

#include <memory>

namespace logitlab::engine {

class ModelLogitsSource final : public StepLogitsSource {
public:
    explicit ModelLogitsSource(std::shared_ptr<const NgramModel> model) : m_model(std::move(model)) {}

    std::size_t vocabSize() const override { return m_model->vocabSize(); }
    const std::vector<std::string>& tokens() const override { return m_model->tokens(); }
    void logits(std::size_t, std::span<const std::int32_t> context, double* out) const override
    {
        m_model->logits(context, out);
    }
    const std::shared_ptr<const NgramModel>& model() const { return m_model; }

private:
    std::shared_ptr<const NgramModel> m_model;
};

}  // namespace logitlab::engine
