// A chain as JSON, kept in the app layer so the engine stays free of Qt:
// [{"stage":"top-k","k":40},{"stage":"top-p","p":0.95,"min-keep":0},...]
// Numbers are JSON numbers; list parameters keep their compact text ("5@-1.5/7@2").
#pragma once

#include "engine/core/result.h"
#include "engine/sampler/sampler_chain.h"

#include <QJsonArray>

namespace logitlab::app {

// Every stage, or only the active ones (what `"chain"` in the candidates output lists).
QJsonArray chainToJson(const engine::SamplerChain& chain, bool activeOnly);

// Parses and validates under `semantics`; errors name the stage and the parameter.
engine::Result<engine::SamplerChain> chainFromJson(const QJsonArray& json, engine::Semantics semantics);

}  // namespace logitlab::app
