// The junk-risk experiment as a file describes it: version 1 of the experiment-file format,
// {"logitlab": 1, "experiment": "junk-risk", "name": ..., ...parameters} (docs/experiments.md).
// Reading is strict: unknown keys, wrong types, out-of-range values and unknown versions are
// errors naming the file and the key.
#pragma once

#include "app/io/experiment_file.h"
#include "app/kinds/experiment_kind.h"
#include "app/kinds/step_source.h"
#include "engine/core/result.h"
#include "engine/experiments/junk_definition.h"
#include "engine/experiments/junk_risk.h"
#include "engine/experiments/reply_junk_risk.h"
#include "engine/sampler/sampler_settings.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace logitlab::app {

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

struct JunkRiskSpec {
    QString name = QStringLiteral("junk-risk");
    QString description;
    DistributionSpec distribution;  // unused when `reply` is set
    // Along a reply (one row per step, no lengths): the built-in model's reply, or else a file
    // distribution with "steps". Without either, one distribution at every step (today's).
    std::optional<ReplySpec> reply;
    engine::JunkDefinition junk;
    QList<SettingSpec> settings;
    LengthSpec lengths;
    qint64 replies = 10000;
    qint64 seed = 42;
    QString rng = QStringLiteral("mt19937_64");
    bool logLengthAxis = true;  // chart.log_n

    bool alongReply() const { return reply.has_value() || distribution.steps.has_value(); }

    friend bool operator==(const JunkRiskSpec&, const JunkRiskSpec&) = default;
};

inline constexpr qint64 kMaxSettings = 16;
inline constexpr qint64 kMaxLengths = 10000;

// `source` names the file in messages. Errors read "<source>: <key>: <problem>".
engine::Result<JunkRiskSpec> parseJunkRisk(const QJsonObject& root, const QString& source);
engine::Result<JunkRiskSpec> parseJunkRiskText(const QByteArray& json, const QString& source);
engine::Result<JunkRiskSpec> readJunkRiskFile(const QString& path);

QJsonObject toJson(const JunkRiskSpec& spec);
QString writeJunkRiskFile(const QString& path, const JunkRiskSpec& spec);  // error message or empty

// Everything the engine needs; errors name the file.
engine::Result<engine::JunkRiskParameters> toParameters(const JunkRiskSpec& spec, const QString& baseDir);
// Along a reply: the settings, junk, replies, seed and rng (the steps come from step_source.h).
engine::Result<engine::ReplyJunkRiskParameters> toReplyParameters(const JunkRiskSpec& spec);

// The junk-risk experiment kind: how likely an N-token reply is to hold a junk token
// (junk_risk_spec.h reads the file, junk_risk_job.h runs it).
const ExperimentKind& junkRiskKind();

}  // namespace logitlab::app
