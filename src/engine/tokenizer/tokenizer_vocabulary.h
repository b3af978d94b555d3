// What a tokenizer is built from: the `tokenizer.ggml.*` metadata of a GGUF file (or the same
// lists from anywhere else). The tokenizer library does not read GGUF itself, so it can be
// tested on hand-made vocabularies.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace logitlab::engine::tokenizer {

struct TokenizerVocabulary {
    std::string model;                // tokenizer.ggml.model: "gpt2" (byte-level BPE) or "llama" (SentencePiece)
    std::string pre;                  // tokenizer.ggml.pre: "gpt-2", "llama-bpe", "qwen2", "smollm", "default", ...
    std::vector<std::string> tokens;  // tokenizer.ggml.tokens
    std::vector<float> scores;        // tokenizer.ggml.scores (SentencePiece); may be empty for BPE
    std::vector<std::int32_t>
        types;  // tokenizer.ggml.token_type: 1 normal, 2 unknown, 3 control, 4 user defined, 5 unused, 6 byte
    std::vector<std::string> merges;     // tokenizer.ggml.merges: "a b" (BPE)
    std::int32_t bos = -1;               // tokenizer.ggml.bos_token_id
    std::int32_t eos = -1;               // tokenizer.ggml.eos_token_id
    std::int32_t unknown = -1;           // tokenizer.ggml.unknown_token_id
    bool addBos = false;                 // tokenizer.ggml.add_bos_token (llama.cpp's default per model when absent:
                                         // defaultAddBos in tokenizer.h)
    bool addEos = false;                 // tokenizer.ggml.add_eos_token
    std::optional<bool> addSpacePrefix;  // tokenizer.ggml.add_space_prefix; absent: true for llama, false for gpt2
};

}  // namespace logitlab::engine::tokenizer
