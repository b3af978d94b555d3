// The loop experiment kind: the autoregressive loop on the built-in model, step by step
// (loop_spec.h reads the file, loop_job.h runs it).
#pragma once

#include "app/kinds/experiment_kind.h"

namespace logitlab::app {

const ExperimentKind& loopKind();

}  // namespace logitlab::app
