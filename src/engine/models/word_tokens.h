// The built-in model's tokenizer: text to word-level tokens and back. A token is a word (letters,
// digits, '_', UTF-8 bytes, with '.', '-' or '\'' inside it: "llama.cpp", "top-p", "0.95",
// "don't"), a run of one punctuation character ("```", "|", "("), or "\n" for a paragraph break
// (a blank line); other white space only separates tokens.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace logitlab::engine {

// The paragraph-break token.
inline constexpr std::string_view kParagraphToken = "\n";

std::vector<std::string> wordTokens(std::string_view text);

// The tokens as readable text: words separated by spaces, closing punctuation attached to the
// word before it, opening brackets to the word after, "\n" as a line break.
std::string joinWordTokens(const std::vector<std::string>& tokens);

// What joinWordTokens puts before `token` when it follows `previous` ("" at the start).
std::string separatorBefore(std::string_view previous, std::string_view token);

}  // namespace logitlab::engine
