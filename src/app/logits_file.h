// Reads a logits file from disk (one number per line, or token,logit CSV) into a Distribution.
#pragma once

#include "distribution.h"
#include "result.h"

#include <QString>

#include <optional>
#include <string>

namespace logitlab::app {

// Why `path` cannot be opened (missing, a folder, unreadable), without reading it: cheap enough
// to answer on the UI thread before the reading and parsing go to a worker.
std::optional<std::string> logitsFileProblem(const QString& path);

engine::Result<engine::Distribution> readLogitsFile(const QString& path);

}  // namespace logitlab::app
