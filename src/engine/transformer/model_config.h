// A transformer's shape as a GGUF file's metadata gives it: the architecture (general.architecture)
// and the `<arch>.*` hyperparameters llama.cpp writes. LogitLab runs three architectures:
//   llama  RMSNorm, RoPE on adjacent pairs (llama.cpp's converter permutes Q and K for it),
//          grouped-query attention, SwiGLU; optional Q/K/V/output biases; rope_freqs.weight
//          (Llama 3's frequency factors) when present
//   qwen2  llama's graph with Q/K/V biases and RoPE on halves (NEOX ordering)
//   gpt2   LayerNorm with biases, learned positions, a fused QKV product, GELU (tanh form)
#pragma once

#include "engine/core/result.h"

#include <cstdint>
#include <string>

namespace logitlab::engine::gguf {
class GgufFile;
}

namespace logitlab::engine::transformer {

enum class Architecture { Llama, Qwen2, Gpt2 };
std::string architectureName(Architecture arch);  // "llama", "qwen2", "gpt2"

enum class RopeOrdering { None, Normal, Neox };

struct ModelConfig {
    Architecture arch = Architecture::Llama;
    std::int64_t embedding = 0;    // n_embd
    std::int64_t layers = 0;       // block_count
    std::int64_t heads = 0;        // attention.head_count
    std::int64_t kvHeads = 0;      // attention.head_count_kv (heads when absent)
    std::int64_t headDim = 0;      // attention.key_length, else embedding / heads
    std::int64_t feedForward = 0;  // feed_forward_length
    std::int64_t context = 0;      // context_length: the positions the model was trained on
    std::int64_t vocabulary = 0;   // token_embd.weight's row count
    std::int64_t ropeDims = 0;     // rope.dimension_count (headDim when absent); 0 for gpt2
    double ropeBase = 10000.0;     // rope.freq_base
    // Linear RoPE scaling: angles times 1 / rope.scaling.factor (or rope.scale_linear), as
    // llama.cpp applies it with rope.scaling.type absent, "none" or "linear". Other types (yarn,
    // longrope) are refused rather than run wrongly.
    double ropeScale = 1.0;
    double normEpsilon = 1e-5;  // attention.layer_norm_rms_epsilon (gpt2: layer_norm_epsilon)

    RopeOrdering rope() const;
    std::int64_t qDim() const { return heads * headDim; }
    std::int64_t kvDim() const { return kvHeads * headDim; }

    // The shape from a file's metadata (and its token_embd.weight), every value checked: an
    // architecture other than the three is refused by name, a missing or impossible key by key.
    static Result<ModelConfig> fromGguf(const gguf::GgufFile& file);
    // The checks fromGguf makes, for a shape built in code; an empty string when it is usable.
    std::string problem() const;

    // Limits that keep every size product far inside 64 bits.
    static constexpr std::int64_t kMaxDimension = 1 << 20;
    static constexpr std::int64_t kMaxLayers = 1024;
    static constexpr std::int64_t kMaxContext = 1 << 24;
};

}  // namespace logitlab::engine::transformer
