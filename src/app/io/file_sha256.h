// The SHA-256 of a file, read in slices: provenance names the exact logits a result came from,
// and a model's dump may be far larger than what is read into memory at once.
#pragma once

#include <QString>

#include <optional>

namespace logitlab::app {

// Lower-case hex, or nothing when the file cannot be read (or is not a regular file).
std::optional<QString> fileSha256(const QString& path);

}  // namespace logitlab::app
