// The pre-tokenizers of byte-level BPE vocabularies (`tokenizer.ggml.pre`): each splits text into
// the words BPE merges within, as llama.cpp's llm_tokenizer_bpe does with its regex lists per
// pre-type. The regexes are written as scanners over code points (std::regex has no Unicode
// categories); the comments in pre_tokenizer.cpp give each regex.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace logitlab::engine::tokenizer {

enum class PreTokenizerKind {
    Default,  // llama.cpp's fallback: punctuation runs, then GPT-2, then number runs, then 3 ASCII digits
    Gpt2,     // 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
    Llama3,   // (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
              // ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
    Qwen2,    // as Llama3 with \p{N} (one digit a piece)
    Smollm,   // \p{N} first (one digit a piece), then GPT-2 on the rest
};

// What llama.cpp sets for one `tokenizer.ggml.pre` name.
struct PreTokenizerInfo {
    PreTokenizerKind kind = PreTokenizerKind::Default;
    bool ignoreMerges = false;  // a word that is a whole token is taken as it is (llama3)
    bool cleanSpaces = true;    // detokenize removes spaces before punctuation and contractions
    bool addBos = false;        // add_bos when the file does not say
};

// nullopt when llama.cpp would reject the name (or this library does not support it). An empty
// name is llama.cpp's missing-key case: "default".
std::optional<PreTokenizerInfo> findPreTokenizer(std::string_view name);

// The supported names, comma-separated, for error messages.
std::string supportedPreTokenizers();

// Splits UTF-8 text into words (UTF-8, concatenating to the text when it is valid UTF-8; bytes
// that are not valid UTF-8 become U+FFFD, as in llama.cpp).
std::vector<std::string> preTokenize(std::string_view text, PreTokenizerKind kind);

}  // namespace logitlab::engine::tokenizer
