// The model shapes the transformer benchmarks run (random weights): SmolLM2-135M's and Llama
// 3.2 1B's, as their GGUF files give them.
#pragma once

#include "engine/transformer/model_config.h"

#include <cstdint>

namespace logitlab::bench {

using engine::transformer::Architecture;
using engine::transformer::ModelConfig;

// A llama of heads of 64 dimensions and a context of 8,192.
inline ModelConfig llamaShape(std::int64_t embedding, std::int64_t layers, std::int64_t heads, std::int64_t kvHeads,
                              std::int64_t feedForward, std::int64_t vocabulary, double ropeBase)
{
    ModelConfig c;
    c.arch = Architecture::Llama;
    c.embedding = embedding;
    c.layers = layers;
    c.heads = heads;
    c.kvHeads = kvHeads;
    c.headDim = 64;
    c.feedForward = feedForward;
    c.context = 8192;
    c.vocabulary = vocabulary;
    c.ropeDims = 64;
    c.ropeBase = ropeBase;
    c.normEpsilon = 1e-5;
    return c;
}

inline ModelConfig smolLm2Shape() { return llamaShape(576, 30, 9, 3, 1536, 49152, 100000.0); }

inline ModelConfig llama1BShape() { return llamaShape(2048, 16, 32, 8, 8192, 128256, 500000.0); }

}  // namespace logitlab::bench
