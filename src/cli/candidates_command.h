// `logitlab-cli candidates`: the survivors of the sampler with their probabilities.
#pragma once

#include "command_spec.h"

#include <QJsonArray>
#include <QJsonObject>

#include "candidate.h"
#include "distribution.h"
#include "sampler_settings.h"

namespace logitlab::cli {

int runCandidates(CommandContext& context);
CommandSpec candidatesCommand();

// [{"id","token","p","p_raw"},...]
QJsonArray survivorsJson(const engine::CandidateList& survivors, const engine::Distribution& distribution);

}  // namespace logitlab::cli
