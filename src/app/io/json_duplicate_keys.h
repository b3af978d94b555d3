// Duplicate keys in JSON text. QJsonDocument keeps the last of two equal keys without a word, so
// `{"top_p": 0.9, "top_p": 0.1}` would silently run with 0.1; every JSON reader (experiment
// files, Explorer state files) calls this after parsing and refuses the file instead.
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace logitlab::app {

// The path of the first key that repeats within its object ("distribution.kind", "settings.1.top_p"),
// or nothing. Keys are compared after decoding escapes, as the parser does ("a" equals "\u0061").
// Meant for text that already parsed as JSON: malformed text gives no answer.
std::optional<QString> duplicateJsonKey(const QByteArray& json);

// "<path>: appears twice in one object (JSON keys must be unique)", or nothing.
std::optional<QString> duplicateJsonKeyProblem(const QByteArray& json);

}  // namespace logitlab::app
