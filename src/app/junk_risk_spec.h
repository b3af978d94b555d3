// The junk-risk experiment as a file describes it: version 1 of the experiment-file format,
// {"logitlab": 1, "experiment": "junk-risk", "name": ..., ...parameters} (docs/experiments.md).
// Reading is strict: unknown keys, wrong types, out-of-range values and unknown versions are
// errors naming the file and the key.
#pragma once

#include "distribution.h"
#include "junk_definition.h"
#include "junk_risk.h"
#include "result.h"
#include "sampler_settings.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <vector>

namespace logitlab::app {

struct DistributionSpec {
    enum class Kind { Logits, Probabilities, File, Zipf, Normal };
    Kind kind = Kind::Logits;
    QList<double> values;       // logits, or probabilities (Kind::Probabilities)
    QStringList tokens;         // optional names, one per value
    QString path;               // Kind::File: a logits file, relative to the experiment file
    qint64 vocabulary = 262144; // Zipf, Normal
    double exponent = 1.0;      // Zipf
    double sigma = 2.0;         // Normal
    qint64 seed = 1;            // Normal

    friend bool operator==(const DistributionSpec&, const DistributionSpec&) = default;
};

// An explicit list, or a range: from..to in steps, or `points` log-spaced values.
struct LengthSpec {
    QList<qint64> list;  // used when !isRange
    bool isRange = false;
    qint64 from = 1;
    qint64 to = 1000;
    qint64 step = 1;
    bool logSpacing = false;
    qint64 points = 30;

    std::vector<std::int64_t> expand() const;  // ascending, distinct
    friend bool operator==(const LengthSpec&, const LengthSpec&) = default;
};

struct SettingSpec {
    QString label;
    engine::SamplerSettings sampler;

    friend bool operator==(const SettingSpec&, const SettingSpec&) = default;
};

struct JunkRiskSpec {
    QString name = QStringLiteral("junk-risk");
    QString description;
    DistributionSpec distribution;
    engine::JunkDefinition junk;
    QList<SettingSpec> settings;
    LengthSpec lengths;
    qint64 replies = 10000;
    qint64 seed = 42;
    QString rng = QStringLiteral("mt19937_64");
    bool logLengthAxis = true;  // chart.log_n

    friend bool operator==(const JunkRiskSpec&, const JunkRiskSpec&) = default;
};

inline constexpr int kExperimentFileVersion = 1;
inline constexpr qint64 kMaxVocabulary = 1 << 20;
inline constexpr qint64 kMaxSettings = 16;
inline constexpr qint64 kMaxLengths = 10000;

// `source` names the file in messages. Errors read "<source>: <key>: <problem>".
engine::Result<JunkRiskSpec> parseJunkRisk(const QJsonObject& root, const QString& source);
// The file's top-level JSON object, before any key is checked (for --set overrides).
engine::Result<QJsonObject> parseExperimentJson(const QByteArray& json, const QString& source);
engine::Result<QJsonObject> readExperimentJson(const QString& path);
engine::Result<JunkRiskSpec> parseJunkRiskText(const QByteArray& json, const QString& source);
engine::Result<JunkRiskSpec> readJunkRiskFile(const QString& path);

QJsonObject toJson(const JunkRiskSpec& spec);
QString writeJunkRiskFile(const QString& path, const JunkRiskSpec& spec);  // error message or empty

// `key=value` from the command line into the file's JSON before it is parsed: the key is a
// dotted path ("junk.threshold", "settings.1.top_p"), the value JSON or else a plain string.
engine::Result<QJsonObject> applyOverride(QJsonObject root, const QString& assignment);

// The logits the distribution describes (reading the file relative to baseDir for Kind::File).
engine::Result<engine::Distribution> resolveDistribution(const DistributionSpec& spec, const QString& baseDir);

// Everything the engine needs; errors name the file.
engine::Result<engine::JunkRiskParameters> toParameters(const JunkRiskSpec& spec, const QString& baseDir);

}  // namespace logitlab::app
