// Where the loop's logits at a step come from: the built-in model given the history (free
// running: the pick becomes the next context), or row t of a model's dump (teacher-forced: the
// history is the model's own tokens, so the distribution at step t does not depend on what the
// sampler picked). GenerationLoop runs the same chain, draw and records over either.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace logitlab::engine {

class StepLogitsSource {
public:
    virtual ~StepLogitsSource() = default;

    virtual std::size_t vocabSize() const = 0;
    // One name per id, for text and tables.
    virtual const std::vector<std::string>& tokens() const = 0;
    // How many steps the source holds; nullopt for a model, which continues any context.
    virtual std::optional<std::size_t> stepCount() const { return std::nullopt; }
    // The longest context (prompt and history) the source reads; nullopt: no limit. A GGUF
    // model's run has a KV cache of so many positions.
    virtual std::optional<std::size_t> contextLimit() const { return std::nullopt; }
    // True when the history is the source's own tokens (actualToken, or the argmax where the
    // source does not know them) rather than the sampler's picks.
    virtual bool teacherForced() const { return false; }
    // The logits at `step` (0-based) after `context` (prompt + tokens so far), vocabSize() values.
    virtual void logits(std::size_t step, std::span<const std::int32_t> context, double* out) const = 0;
    // The first problem the source met computing logits (a model whose logits came out NaN or
    // infinite, a forward pass that failed), nullopt while there is none. The rows it gave
    // from then on are flat (all zero, safe for any chain): a run that reads a source with a
    // fault must report it rather than its results.
    virtual std::optional<std::string> fault() const { return std::nullopt; }
    // The token the model actually produced at `step`, when the source knows it.
    virtual std::optional<std::int32_t> actualToken(std::size_t step) const
    {
        (void)step;
        return std::nullopt;
    }
    // The text of a token sequence when the source has a tokenizer that joins tokens its own way
    // (a GGUF model's pieces); nullopt: the names are words joined by joinWordTokens.
    virtual std::optional<std::string> decodeText(std::span<const std::int32_t> ids) const
    {
        (void)ids;
        return std::nullopt;
    }
};

}  // namespace logitlab::engine
