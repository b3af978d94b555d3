// A model's vocabulary fitted to the logits it is used with: one readable name per logit (and
// the tokenizer's raw spelling when it differs), ids the tokenizer does not name shown as
// "<id 151643>" (models pad V beyond the tokenizer), and a vocabulary with ids beyond V
// refused as another model's.
#pragma once

#include "engine/core/result.h"
#include "engine/models/token_spelling.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace logitlab::engine {

// Tokens by id as a tokenizer gives them; ids it skips are empty.
struct TokenTable {
    std::vector<std::optional<std::string>> byId;
    TokenSpelling spelling = TokenSpelling::Plain;
    std::size_t tokenCount = 0;  // ids that have a token
};

struct Vocabulary {
    std::vector<std::string> shown;  // one per logit: readable, or "<id N>"
    std::vector<std::string> raw;    // the tokenizer's own spelling, one per logit; empty when equal to shown
    std::size_t unnamed = 0;         // ids with no token
    std::string note;                // "293 of 151,936 ids have no token ...", or empty
};

// A text file with one token per line (a final newline ends the last line; "\r\n" is read as
// one line end). An empty line is an id without a token.
Result<TokenTable> parseVocabularyText(std::string_view text, const std::string& what);

// The vocabulary for `logitCount` logits. `what` names the file in messages.
Result<Vocabulary> fitVocabulary(const TokenTable& table, std::size_t logitCount, const std::string& what);

}  // namespace logitlab::engine
