// The junk-risk experiment kind: how likely an N-token reply is to hold a junk token
// (junk_risk_spec.h reads the file, junk_risk_job.h runs it).
#pragma once

#include "app/kinds/experiment_kind.h"

namespace logitlab::app {

const ExperimentKind& junkRiskKind();

}  // namespace logitlab::app
