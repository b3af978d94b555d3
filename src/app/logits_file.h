// Reads a logits file from disk (one number per line, or token,logit CSV) into a Distribution.
#pragma once

#include "distribution.h"
#include "result.h"

#include <QString>

namespace logitlab::app {

engine::Result<engine::Distribution> readLogitsFile(const QString& path);

}  // namespace logitlab::app
