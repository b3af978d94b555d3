// The batch-invariance experiment kind: why temperature 0 still varies on a server
// (batch_invariance_spec.h reads the file, batch_invariance_job.h runs it).
#pragma once

#include "app/kinds/experiment_kind.h"

namespace logitlab::app {

const ExperimentKind& batchInvarianceKind();

}  // namespace logitlab::app
