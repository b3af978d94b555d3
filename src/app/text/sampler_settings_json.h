// The sampler's settings as JSON, derived from engine::samplerParameters(): one key per setting,
// spelt as its CLI option ("top-p", "xtc-probability", "logit-bias"), in every file LogitLab
// writes. The spellings of files written before that ("topK", "topP", "minP", "top_k", "top_p")
// are still read; a file that gives both spellings of one setting is refused.
#pragma once

#include "app/io/json_object_reader.h"
#include "engine/sampler/chain_settings.h"
#include "engine/sampler/sampler_parameters.h"
#include "engine/sampler/sampler_settings.h"

#include <QJsonObject>
#include <QString>

namespace logitlab::app {

// Reads `parameter` into `settings` when the object has it, checked for type and for the range
// the app's files hold (JsonFieldError naming the key otherwise). Returns the key it was read
// under (an old spelling, maybe), or an empty string when the object does not have it.
QString readSamplerSetting(JsonObjectReader& reader, const engine::SamplerParameter& parameter,
                           engine::ChainSettings& settings);

// Every setting of the table (lessonOnly: temperature, top-k and top-p alone).
engine::ChainSettings readSamplerSettings(JsonObjectReader& reader, bool lessonOnly = false);

// The settings that are set, by their names; whole numbers are written as such.
QJsonObject samplerSettingsToJson(const engine::ChainSettings& settings);
// The lesson's three alone (temperature always).
QJsonObject samplerSettingsToJson(const engine::SamplerSettings& lesson);

}  // namespace logitlab::app
