// `logitlab-cli run FILE.json --out DIR`: runs an experiment file headless and writes
// DIR/<name>.csv (with provenance) and the chart in each requested format.
#pragma once

#include "cli/command_spec.h"

namespace logitlab::cli {

int runRun(CommandContext& context);
CommandSpec runCommand();

}  // namespace logitlab::cli
