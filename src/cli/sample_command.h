// `logitlab-cli sample`: seeded draws through the sampler, counted per token.
#pragma once

#include "cli/command_spec.h"

namespace logitlab::cli {

int runSample(CommandContext& context);
CommandSpec sampleCommand();

}  // namespace logitlab::cli
