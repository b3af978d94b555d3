// Atomic file writes: the whole file or nothing, never half a file, and an existing file stays
// intact when the write fails.
#pragma once

#include <QByteArray>
#include <QString>

namespace logitlab::app {

// Returns an empty string on success, else a message naming the file and the reason.
QString saveBytes(const QString& path, const QByteArray& bytes);
QString saveText(const QString& path, const QString& text);

}  // namespace logitlab::app
