// `logitlab-cli sample`: seeded draws through the sampler, counted per token.
#pragma once

#include "command_line.h"

namespace logitlab::cli {

int runSample(CommandContext& context);

}  // namespace logitlab::cli
