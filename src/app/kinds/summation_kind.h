// The summation-order experiment kind: the same terms summed in many orders and precisions,
// judged against the exact sum (summation_spec.h reads the file, summation_job.h runs it).
#pragma once

#include "app/kinds/experiment_kind.h"

namespace logitlab::app {

const ExperimentKind& summationKind();

}  // namespace logitlab::app
