// Reading a file that came from outside (logits files, experiment files, Explorer state files)
// without trusting it: only regular files are read (a device such as /dev/zero would be read
// until memory runs out, a FIFO would block forever), and never more than a size limit, which
// the message names together with the file's size.
#pragma once

#include "input_limits.h"
#include "result.h"

#include <QByteArray>
#include <QString>

#include <optional>
#include <string>

namespace logitlab::app {

inline constexpr qint64 kMaxInputFileBytes = static_cast<qint64>(engine::kMaxInputFileBytes);

// Why `path` cannot be read (missing, a folder, not a regular file, unreadable, too large),
// without reading it: cheap enough for the UI thread. Never blocks, not even on a FIFO.
std::optional<std::string> inputFileProblem(const QString& path, qint64 maxBytes = kMaxInputFileBytes);

// The file's bytes, or the problem above. A file that grows past the limit while it is read
// (or a /proc file that reports size 0) is refused too: at most maxBytes + 1 bytes are read.
engine::Result<QByteArray> readInputFile(const QString& path, qint64 maxBytes = kMaxInputFileBytes);

}  // namespace logitlab::app
