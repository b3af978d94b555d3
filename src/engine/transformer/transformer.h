// A GGUF model's forward pass on the CPU (issue 36): tokens in, the last position's logits out,
// with a KV cache so a continuation costs one position's work. Prompts are evaluated in
// batches of `batch` positions (every weight read once per batch); the products run on a
// persistent thread pool (thread_pool.h) and their arithmetic (matmul.h) does not depend on the
// thread count, so a run is reproducible for a given kernel path, reduction plan and batch
// split, and identical across thread counts.
//
// Memory: the KV cache takes 2 x layers x context x kv_heads x head_size floats, allocated at
// load and refused over kvCacheLimitBytes; weights stay where the file's bytes are (the
// GgufFile and the bytes it was parsed from must outlive the Transformer).
#pragma once

#include "engine/core/result.h"
#include "engine/transformer/matmul.h"
#include "engine/transformer/model_config.h"
#include "engine/transformer/model_weights.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace logitlab::engine::gguf {
class GgufFile;
}

namespace logitlab::engine::transformer {

struct TransformerOptions {
    int threads = 1;           // 1..kMaxThreads
    std::int64_t context = 0;  // positions to cache; 0: the model's
    std::uint64_t kvCacheLimitBytes = 4ull << 30;
    std::int64_t batch = 256;  // positions per forward pass of a prompt
    ReductionPlan plan;        // for every product
    KernelPath kernels = bestKernelPath();

    static constexpr int kMaxThreads = 256;
};

class Transformer {
public:
    // The model a parsed GGUF file holds (ModelConfig::fromGguf, ModelWeights::bind).
    static Result<Transformer> load(const gguf::GgufFile& file, const TransformerOptions& options = {});
    // A model from a shape and tensors built elsewhere (tests, converters): the tensors' bytes
    // must outlive the Transformer. `what` starts every message.
    static Result<Transformer> create(const ModelConfig& config, std::span<const gguf::TensorInfo> tensors,
                                      const TransformerOptions& options = {}, const std::string& what = "model");

    Transformer(Transformer&&) noexcept;
    Transformer& operator=(Transformer&&) noexcept;
    ~Transformer();

    const ModelConfig& config() const;
    const ModelWeights& weights() const;
    const TransformerOptions& options() const;
    std::int64_t context() const;  // positions the cache holds
    std::uint64_t kvCacheBytes() const;

    // Appends the tokens at positions position()..position() + n - 1 (every token in
    // [0, vocabulary), n >= 1, room left in the context) and returns the logits after the last
    // one (vocabulary floats, valid until the next call that changes the state).
    Result<std::span<const float>> evaluate(std::span<const std::int32_t> tokens);
    // The logits evaluate() last returned; empty after reset() or truncate().
    std::span<const float> logits() const;

    std::int64_t position() const;  // tokens in the cache
    void reset();                   // truncate(0)
    // Keeps the cache's first n positions (n <= position()), for branching a continuation.
    void truncate(std::int64_t n);

private:
    struct Impl;
    explicit Transformer(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

}  // namespace logitlab::engine::transformer
