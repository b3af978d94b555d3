// A GGUF model as a source of next-token logits for the experiments (issue 36). GgufModel is the
// opened file: its directory, shape and tokenizer, checked once and shared by every run.
// GgufModelSource is one run's view of it, with its own KV cache: the Loop (and anything else
// that walks a reply) asks it for the logits after a context, as it asks the built-in model.
//
// The evaluation schedule is fixed so that a run gives the same bits wherever it runs: the
// prompt in one evaluate() call, then each later token alone. A context that shares the cached
// prefix (a branch, a step on after a run) truncates the cache there and evaluates the rest one
// token at a time, which is what a fresh run would have done for those positions.
#pragma once

#include "engine/core/result.h"
#include "engine/gguf/gguf_file.h"
#include "engine/models/step_logits_source.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/transformer/model_config.h"
#include "engine/transformer/transformer.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace logitlab::engine::transformer {

class GgufModel {
public:
    // The longest run the experiments cache (prompt and reply): the KV cache is allocated for the
    // run's positions, never more than this or the model's own context.
    static constexpr std::int64_t kMaxPositions = 8192;

    // The model in `bytes` (a GGUF file), which stay valid while `owner` lives. Checks the
    // architecture, the shape, every tensor and the tokenizer; `what` (the file's name) starts
    // every message.
    static Result<std::shared_ptr<const GgufModel>> open(std::shared_ptr<const void> owner,
                                                         std::span<const std::byte> bytes, const std::string& what);

    const std::string& what() const { return m_file->what(); }
    const gguf::GgufFile& file() const { return *m_file; }
    const ModelConfig& config() const { return m_config; }
    const tokenizer::Tokenizer& tokenizer() const { return *m_tokenizer; }
    // One name per id of the model's output (the token's text; "<id N>" past the tokenizer's list).
    const std::vector<std::string>& tokenNames() const { return m_names; }
    std::int64_t maxPositions() const;  // min(the model's context, kMaxPositions)
    // The weights in the file's tensors: about the multiply-adds of one position's pass, for
    // bounding work before it starts.
    std::uint64_t parameterCount() const { return m_parameters; }

    // The ids of a prompt: BOS (and EOS) as the tokenizer adds them, control tokens' text read as
    // those tokens (a chat template typed in works).
    std::vector<std::int32_t> encode(std::string_view text) const;
    std::string decode(std::span<const std::int32_t> ids) const;
    // The id whose name is `name`, or nullopt (the first when names repeat).
    std::optional<std::int32_t> tokenId(std::string_view name) const;

private:
    GgufModel() = default;
    std::shared_ptr<const void> m_owner;
    std::unique_ptr<gguf::GgufFile> m_file;  // never moves: the tensors point into its bytes
    ModelConfig m_config;
    std::optional<tokenizer::Tokenizer> m_tokenizer;
    std::vector<std::string> m_names;
    std::uint64_t m_parameters = 0;
};

// Why logits a model gave after `tokens` tokens cannot be sampled (a NaN or infinite value:
// weights holding them, or activations past float32's range), naming the first such token;
// nothing when all are finite.
std::optional<std::string> nonFiniteLogitsProblem(std::span<const float> logits, std::size_t tokens);

class GgufModelSource final : public StepLogitsSource {
public:
    // A run of at most `positions` tokens (prompt and reply; 1..maxPositions()) on `threads`.
    static Result<std::shared_ptr<GgufModelSource>> create(std::shared_ptr<const GgufModel> model,
                                                           std::int64_t positions, int threads = 1);

    std::size_t vocabSize() const override { return m_model->tokenNames().size(); }
    const std::vector<std::string>& tokens() const override { return m_model->tokenNames(); }
    // `context` must hold 1..positions tokens of the vocabulary (the caller checks; a context
    // outside gives a flat row).
    void logits(std::size_t step, std::span<const std::int32_t> context, double* out) const override;
    std::optional<std::string> decodeText(std::span<const std::int32_t> ids) const override
    {
        return m_model->decode(ids);
    }
    std::optional<std::size_t> contextLimit() const override { return static_cast<std::size_t>(m_positions); }
    const std::shared_ptr<const GgufModel>& model() const { return m_model; }
    std::int64_t positions() const { return m_positions; }
    // Forward passes run so far (for tests of the schedule).
    std::size_t evaluations() const;
    std::optional<std::string> fault() const override;

private:
    GgufModelSource(std::shared_ptr<const GgufModel> model, Transformer transformer, std::int64_t positions);
    std::shared_ptr<const GgufModel> m_model;
    std::int64_t m_positions;
    mutable std::mutex m_mutex;
    mutable Transformer m_transformer;
    mutable std::vector<std::int32_t> m_cached;  // the tokens in the cache
    mutable std::size_t m_prefill = 0;           // how many of them the first call evaluated
    mutable std::vector<float> m_prefillLogits;  // the logits after them
    mutable std::size_t m_evaluations = 0;
    mutable std::optional<std::string> m_fault;  // the first, kept: later rows are flat
};

}  // namespace logitlab::engine::transformer
