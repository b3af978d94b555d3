// `logitlab-cli tokenize` and `logitlab-cli logits` (issue 36): a GGUF model file on the CPU.
// tokenize prints the token ids (and pieces) of a text under the model's tokenizer; logits runs
// the forward pass over a prompt or given token ids and prints the logits after the last token.
#pragma once

#include "cli/command_spec.h"

#include "engine/core/result.h"
#include "engine/tokenizer/tokenizer_vocabulary.h"

namespace logitlab::engine::gguf {
class GgufFile;
}

namespace logitlab::cli {

int runTokenize(CommandContext& context);
CommandSpec tokenizeCommand();

int runLogits(CommandContext& context);
CommandSpec logitsCommand();

// The tokenizer.ggml.* keys of a GGUF file as the tokenizer takes them; an error names the key.
engine::Result<engine::tokenizer::TokenizerVocabulary> vocabularyFromGguf(const engine::gguf::GgufFile& file);

}  // namespace logitlab::cli
