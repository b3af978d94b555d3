// How the Explorer lays out the settings of engine::samplerParameters(): the tabs their groups sit
// on. Everything else about a setting (label, tooltip, range, decimals, step, the value and text
// that mean "not set") is the engine's table, translated here at the UI edge.
#pragma once

#include "engine/sampler/sampler_parameters.h"

#include <QString>
#include <QStringList>

namespace logitlab::ui {

// The tabs, in order: "Filters", "Penalties", "Adaptive".
const QStringList& stageFieldGroups();

// The tab of a setting on stageFieldGroups(), or -1 for the lesson's three and the token lists,
// which have widgets of their own.
int stageFieldGroup(const engine::SamplerParameter& parameter);

// The table's label and tooltip, translated.
QString parameterLabel(const engine::SamplerParameter& parameter);
QString parameterTooltip(const engine::SamplerParameter& parameter);

}  // namespace logitlab::ui
