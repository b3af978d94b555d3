// The JSON header of a safetensors file, read with QJsonDocument (the engine has no JSON
// reader): each tensor's dtype, shape and data_offsets, checked field by field. The offsets
// are then checked against the file and each other by engine::safetensorsLayout.
#pragma once

#include "engine/core/result.h"
#include "engine/io/safetensors_layout.h"

#include <QByteArray>

#include <string>
#include <vector>

namespace logitlab::app {

// `json` is the header's N bytes; `what` names the file in messages. "__metadata__" is skipped.
engine::Result<std::vector<engine::SafetensorsEntry>> parseSafetensorsHeader(const QByteArray& json,
                                                                             const std::string& what);

}  // namespace logitlab::app
