// Makes a stage from its name for a semantics preset; the names are the ones --chain accepts.
#pragma once

#include "engine/core/result.h"
#include "engine/stages/sampler_stage.h"

#include <memory>
#include <string>
#include <vector>

namespace logitlab::engine {

const std::vector<std::string>& stageNames();

// Error when the name is unknown; the message lists the known names.
Result<std::unique_ptr<SamplerStage>> makeStage(const std::string& name, Semantics semantics);

}  // namespace logitlab::engine
