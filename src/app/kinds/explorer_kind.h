// The Explorer's saved state as an experiment kind: `logitlab-cli run` on a file the Explorer
// saved writes its token table, temperature sweep, draws and preset comparison
// (explorer_state.h reads the file, explorer_run.h computes the views).
#pragma once

#include "app/kinds/experiment_kind.h"

namespace logitlab::app {

// The "format" value of the Explorer's state files, which carry no "experiment" key.
inline constexpr char kExplorerFormat[] = "logitlab-explorer";

const ExperimentKind& explorerKind();

}  // namespace logitlab::app
