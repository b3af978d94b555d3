// What every experiment file shares (version 1 of the format, docs/experiments.md): the header
// {"logitlab": 1, "experiment": ..., "name": ..., "description": ...}, reading the file, --set
// overrides and the strict reading every spec goes through. The "distribution" object is
// distribution_spec.h, a decoding setting setting_spec.h; each experiment's own keys are read
// by its own spec (junk_risk_spec.h, seed_sweep_spec.h).
#pragma once

#include "app/io/distribution_spec.h"
#include "app/io/json_object_reader.h"
#include "app/io/setting_spec.h"
#include "engine/core/result.h"

#include <QJsonObject>
#include <QString>

namespace logitlab::app {

inline constexpr int kExperimentFileVersion = 1;

struct ExperimentHeader {
    QString name;  // names the output files
    QString description;
};

// Reads and checks the header keys: the version first (it decides how the rest is read), then
// that "experiment" is `experiment`, then name and description. Throws JsonFieldError.
ExperimentHeader readHeader(JsonObjectReader& root, const QString& experiment);
QJsonObject headerToJson(const ExperimentHeader& header, const QString& experiment);

// The keys every experiment file shares, read into `spec`: the header (name, description) and
// the "distribution" object. Throws JsonFieldError.
template <class Spec>
void readCommonKeys(JsonObjectReader& r, const QString& experiment, Spec& spec, bool allowSteps = false)
{
    const ExperimentHeader header = readHeader(r, experiment);
    spec.name = header.name;
    spec.description = header.description;
    JsonObjectReader distribution(r.object(QStringLiteral("distribution")), QStringLiteral("distribution"));
    spec.distribution = readDistribution(distribution, allowSteps);
}

// The file's top-level JSON object, before any key is checked (for --set overrides).
engine::Result<QJsonObject> parseExperimentJson(const QByteArray& json, const QString& source);
engine::Result<QJsonObject> readExperimentJson(const QString& path);
// `key=value` from the command line into the file's JSON before it is parsed: the key is a
// dotted path ("junk.threshold", "settings.1.top_p"), the value JSON or else a plain string.
engine::Result<QJsonObject> applyOverride(QJsonObject root, const QString& assignment);

// Runs an experiment's strict reader on a parsed file, turning the first JsonFieldError into
// "<source>: <key>: <problem>". Every experiment's parse function is this plus its reader.
template <class Spec, class Reader>
engine::Result<Spec> readStrictly(Reader read, const QJsonObject& root, const QString& source)
{
    try {
        return read(root);
    } catch (const JsonFieldError& e) {
        return engine::Error{QStringLiteral("%1: %2: %3").arg(source, e.key, e.message).toStdString()};
    }
}

// Reads the file at `path` and hands its JSON to `parse` (an experiment's parse function).
template <class Spec>
engine::Result<Spec> readExperimentFile(const QString& path,
                                        engine::Result<Spec> (*parse)(const QJsonObject&, const QString&))
{
    const auto root = readExperimentJson(path);
    if (!root)
        return engine::Error{root.error()};
    return parse(root.value(), path);
}

}  // namespace logitlab::app
