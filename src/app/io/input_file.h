// Reading a file that came from outside (logits files, experiment files, Explorer state files)
// without trusting it: only regular files are read (a device such as /dev/zero would be read
// until memory runs out, a FIFO would block forever), and never more than a size limit, which
// the message names together with the file's size.
#pragma once

#include "engine/core/input_limits.h"
#include "engine/core/result.h"

#include <QByteArray>
#include <QFile>
#include <QString>

#include <functional>
#include <optional>
#include <string>

namespace logitlab::app {

// A descriptor of `path` open for reading, or why not. Only a regular file is opened, and never
// with a wait: the file is opened O_NONBLOCK (a FIFO without a writer does not block) and its
// type read with fstat on that descriptor, so a file swapped for a FIFO after a check cannot
// block either. The descriptor is blocking again when returned; the caller closes it.
engine::Result<int> openRegularFileDescriptor(const QString& path);
// The same into `file` (which then owns the descriptor); the problem, or nothing when open.
std::optional<std::string> openRegularFile(QFile& file, const QString& path);

inline constexpr qint64 kMaxInputFileBytes = static_cast<qint64>(engine::kMaxInputFileBytes);

// Why `path` cannot be read (missing, a folder, not a regular file, unreadable, too large),
// without reading it: cheap enough for the UI thread. Never blocks, not even on a FIFO.
std::optional<std::string> inputFileProblem(const QString& path, qint64 maxBytes = kMaxInputFileBytes);

// The file's bytes, or the problem above. A file that grows past the limit while it is read
// (or a /proc file that reports size 0) is refused too: at most maxBytes + 1 bytes are read.
// `hugePages`: the buffer asks the kernel for 2 MiB pages (transparent huge pages, where they are
// on madvise): a model of hundreds of MB is then read with a few hundred page faults rather than
// tens of thousands, which in a virtual machine took most of the time.
// `progress`, when given, hears the bytes read so far and the file's size after each slice of
// 16 MiB; returning false ends the read with the error "cancelled".
using ReadProgress = std::function<bool(qint64 done, qint64 total)>;
engine::Result<QByteArray> readInputFile(const QString& path, qint64 maxBytes = kMaxInputFileBytes,
                                         bool hugePages = false, const ReadProgress& progress = {});

// A path an experiment file gives (a logits file, a vocabulary, a model), resolved against the
// experiment file's folder `baseDir`; an absolute path, an empty one or an empty baseDir as given.
QString resolvedPath(const QString& path, const QString& baseDir);

}  // namespace logitlab::app
