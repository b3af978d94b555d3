// How a tokenizer spells its tokens, and the readable form of each: Hugging Face's byte-level
// BPE (GPT-2, Llama 3, Qwen) maps every byte to a printable code point ("Ġthe" is " the", "Ċ"
// is a newline), SentencePiece marks a space with "▁" and bytes as "<0x0A>". The readable form
// shows control characters and broken UTF-8 as escapes (\n, \t, \xE2) and a backslash as \\,
// so two different tokens never read the same.
#pragma once

#include <string>
#include <string_view>

namespace logitlab::engine {

enum class TokenSpelling { Plain, ByteLevel, Metaspace };

// The bytes a byte-level token stands for, or the token itself when a code point of it is not
// in GPT-2's bytes-to-unicode table (added tokens such as "<|endoftext|>" are not encoded).
std::string byteLevelBytes(std::string_view token);

// Bytes as text a reader can see: valid UTF-8 stays, control characters and invalid bytes
// become escapes, a backslash becomes \\.
std::string visibleText(std::string_view bytes);

// The readable form of a raw token under its tokenizer's spelling.
std::string readableToken(std::string_view raw, TokenSpelling spelling);

}  // namespace logitlab::engine
