// The little Unicode the GGUF tokenizers need: UTF-8 to code points the way llama.cpp reads
// them, a code point's general category (as the pre-tokenizer regexes' \p{L}, \p{N}, \p{P}
// and \s see it), and GPT-2's byte-to-character mapping for byte-level BPE.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace logitlab::engine::tokenizer {

enum class UnicodeCategory : std::uint8_t {
    Other,        // control, format, unassigned, separators that are not whitespace
    Letter,       // \p{L}
    Number,       // \p{N}
    Punctuation,  // \p{P}
    Whitespace,   // \s: Unicode White_Space (takes precedence over the general category)
    Symbol,       // \p{S}
    Mark,         // \p{M}
};

// The category of a code point; code points past U+10FFFF are Other.
UnicodeCategory unicodeCategory(std::uint32_t codePoint);

// Decodes UTF-8 like llama.cpp's unicode_cpts_from_utf8: a well-formed lead byte with its
// continuation bytes gives one code point (overlong forms and surrogates are not rejected); any
// other byte gives U+FFFD and consumes that one byte.
std::vector<std::uint32_t> codePointsFromUtf8(std::string_view text);

void appendUtf8(std::string& out, std::uint32_t codePoint);

// How many bytes the UTF-8 sequence starting with this byte claims (1 for continuation bytes),
// like llama.cpp's unicode_len_utf8.
std::size_t utf8SequenceLength(char leadByte);

// GPT-2's bytes_to_unicode: the printable character standing for each byte in a byte-level
// BPE vocabulary (as UTF-8), and back.
const std::string& byteToBpeChar(std::uint8_t byte);
std::optional<std::uint8_t> bpeCharToByte(std::uint32_t codePoint);

}  // namespace logitlab::engine::tokenizer
