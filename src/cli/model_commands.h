// `logitlab-cli tokenize` and `logitlab-cli logits` (issue 36): a GGUF model file on the CPU.
// tokenize prints the token ids (and pieces) of a text under the model's tokenizer; logits runs
// the forward pass over a prompt or given token ids and prints the logits after the last token.
#pragma once

#include "cli/command_spec.h"

namespace logitlab::cli {

int runTokenize(CommandContext& context);
CommandSpec tokenizeCommand();

int runLogits(CommandContext& context);
CommandSpec logitsCommand();

}  // namespace logitlab::cli
