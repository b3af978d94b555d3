// Trains the built-in model (ngram_model.h): counts the trigrams of some texts, tokenized by
// word_tokens.h, and writes the counts the model reads. Runs at build time (tools/train_ngram)
// and in tests on small texts. The same texts in the same order give the same bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace logitlab::engine {

// Each document starts a fresh context (two begin-of-text ids). The vocabulary is every token
// the documents hold, sorted by descending count, ties in byte order of the token.
std::vector<std::uint8_t> trainNgramModel(const std::vector<std::string>& documents);

}  // namespace logitlab::engine
