// Reads a logits file from disk (one number per line, or token,logit CSV) into a Distribution.
#pragma once

#include "distribution.h"
#include "result.h"

#include <QString>

#include <optional>
#include <string>

namespace logitlab::app {

// Why `path` cannot be opened (missing, a folder, a device or FIFO, unreadable, over the size
// limit of input_file.h), without reading it: cheap enough to answer on the UI thread before
// the reading and parsing go to a worker.
std::optional<std::string> logitsFileProblem(const QString& path);

// At most engine::kMaxValues logits and kMaxInputFileBytes bytes (engine/input_limits.h).
engine::Result<engine::Distribution> readLogitsFile(const QString& path);

}  // namespace logitlab::app
