// `logitlab-cli candidates`: the survivors of the sampler with their probabilities.
#pragma once

#include "command_line.h"

#include <QJsonArray>
#include <QJsonObject>

#include "candidate.h"
#include "distribution.h"
#include "sampler_settings.h"

namespace logitlab::cli {

int runCandidates(CommandContext& context);

// [{"id","token","p","p_raw"},...]
QJsonArray survivorsJson(const engine::CandidateList& survivors, const engine::Distribution& distribution);

}  // namespace logitlab::cli
