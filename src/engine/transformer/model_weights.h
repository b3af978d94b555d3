// A model's weights bound to its tensors by llama.cpp's names: the matrices as views into the
// file's bytes (no copy, whatever their type), the norms' weights and the biases (vectors of
// n_embd or so) as floats. Every tensor is checked for presence, shape and size; an error names
// the tensor and the shape expected, in ggml's order ([row length, rows]).
#pragma once

#include "engine/core/result.h"
#include "engine/gguf/gguf_file.h"
#include "engine/transformer/matmul.h"
#include "engine/transformer/model_config.h"

#include <span>
#include <vector>

namespace logitlab::engine::transformer {

struct LayerWeights {
    std::vector<float> attnNorm, attnNormBias;  // bias: gpt2
    WeightView q, k, v;                         // llama, qwen2
    std::vector<float> qBias, kBias, vBias;     // qwen2; llama when the file has them
    WeightView qkv;                             // gpt2: [n_embd, 3 n_embd], Q then K then V
    std::vector<float> qkvBias;
    WeightView output;  // attn_output
    std::vector<float> outputBias;
    std::vector<float> ffnNorm, ffnNormBias;
    WeightView gate;  // llama, qwen2
    WeightView up, down;
    std::vector<float> upBias, downBias;  // gpt2
};

struct ModelWeights {
    WeightView tokenEmbedding;       // [n_embd, vocabulary]
    WeightView positionEmbedding;    // gpt2: [n_embd, context]
    std::vector<float> ropeFactors;  // rope_freqs.weight when present: theta_i / factor_i
    std::vector<LayerWeights> layers;
    std::vector<float> outputNorm, outputNormBias;
    WeightView output;  // output.weight, or token_embd.weight when absent (tied)
    bool tiedOutput = false;

    // `what` starts every message (the file's name).
    static Result<ModelWeights> bind(const ModelConfig& config, std::span<const gguf::TensorInfo> tensors,
                                     const std::string& what);
};

}  // namespace logitlab::engine::transformer
