// The seed-sweep experiment kind: many seeds of one chain, their goodness of fit and spread
// (seed_sweep_spec.h reads the file, seed_sweep_job.h runs it), or with "source": "sequence"
// whole replies of the built-in model per seed (sequence_sweep_job.h).
#pragma once

#include "app/kinds/experiment_kind.h"

namespace logitlab::app {

const ExperimentKind& seedSweepKind();

}  // namespace logitlab::app
