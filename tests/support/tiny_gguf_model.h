// Tiny models as GGUF files, for the tests of everything that runs a model (issue 36). tinyLlama:
// one layer of width 32 with random weights (fixed seeds), 2 heads sharing one KV head; tinyModel:
// any architecture in random_model.h's small shape. Both with a SentencePiece vocabulary of 12
// tokens ("<unk>", "<s>", "</s>", "▁", "h", "i", "▁h", "▁hi", "hi", "!", "▁!", "x"; BOS 1
// added, EOS 2), so "hi!" reads as <s> ▁hi !.
//
// Library `logitlab_test_gguf_writer` (tests/gguf/CMakeLists.txt), with gguf_writer.h.
#pragma once

#include "engine/transformer/model_config.h"
#include "support/gguf_writer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace logitlab::test {

extern const std::vector<std::string> kTinyTokens;

// Matrices in `matrices` (the attention output in F16); `withTokenizer` false leaves out every
// tokenizer.ggml key; `context` is llama.context_length.
GgufWriter tinyLlama(GgmlType matrices, bool withTokenizer = true, std::uint32_t context = 16);

// Two layers of width 64 of `arch` (llama, qwen2 with its biases and untied output, gpt2 with
// learned positions), matrices in `matrices`, the 12-token vocabulary above.
GgufWriter tinyModel(engine::transformer::Architecture arch, GgmlType matrices, std::uint32_t context = 64);

// A model of the shape `c` (its vocabulary as many output rows as it says; the tokenizer's 12
// tokens name the first ids), random weights, matrices in `matrices`: benchmarks' model files.
GgufWriter modelOfShape(const engine::transformer::ModelConfig& c, GgmlType matrices);

// The `<arch>.*` keys llama.cpp writes for the shape `c` (before any tensor).
void addModelMetadata(GgufWriter& w, const engine::transformer::ModelConfig& c, const std::string& arch);

// The logits after `ids` from the model file at `path`, by a Transformer of its own with the
// whole context in one pass (empty when the file cannot be read or run): what tests compare
// the CLI and the experiments against.
std::vector<float> freshLogits(const std::string& path, const std::vector<std::int32_t>& ids);

}  // namespace logitlab::test
