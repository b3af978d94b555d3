// The tokenizer.ggml.* keys of a GGUF file as the tokenizer takes them (issue 36): the shared
// step between a model file and engine::tokenizer::Tokenizer, for the CLI and the experiments.
#pragma once

#include "engine/core/result.h"
#include "engine/tokenizer/tokenizer_vocabulary.h"

namespace logitlab::engine::gguf {
class GgufFile;
}

namespace logitlab::engine::transformer {

// An error names the key ("tokenizer.ggml.tokens" missing, a key of the wrong type).
Result<tokenizer::TokenizerVocabulary> vocabularyFromGguf(const gguf::GgufFile& file);

}  // namespace logitlab::engine::transformer
