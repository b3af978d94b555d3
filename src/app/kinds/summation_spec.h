// The summation-order experiment as a file describes it (docs/experiments.md):
// {"logitlab": 1, "experiment": "summation-order", "name": ..., "terms": {...}, "storage",
// "accumulator", "methods", "shuffles", "seed", "shape": {split, lanes, threads},
// "spread": {max_n, terms}}. Reading is strict: unknown keys, wrong types, out-of-range values,
// unknown methods or precisions and non-finite terms are errors naming the file and the key.
#pragma once

#include "app/io/experiment_file.h"
#include "app/kinds/experiment_kind.h"
#include "engine/core/result.h"
#include "engine/experiments/summation_order.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace logitlab::app {

struct SummationSpec {
    QString name = QStringLiteral("summation-order");
    QString description;
    QString distribution = QStringLiteral("normal");  // engine::termDistributionNames()
    qint64 n = 10000;                                 // generated distributions
    double scale = 1.0;
    QList<double> values;  // "list": the terms in the file ...
    QString file;          // ... or a file of terms, one per line, relative to the experiment file
    QString storage = QStringLiteral("float32");
    QString accumulator = QStringLiteral("float32");
    QStringList methods;  // engine::sumMethodNames(); all of them by default
    qint64 shuffles = 1000;
    qint64 seed = 42;
    int split = 4;
    int lanes = 8;
    int threads = 4;        // the reduction's thread count (the order it sums in), not the runner's
    qint64 spreadMaxN = 0;  // 0: no spread chart
    qint64 spreadTerms = 50000000;

    SummationSpec();
    friend bool operator==(const SummationSpec&, const SummationSpec&) = default;
};

// `source` names the file in messages. Errors read "<source>: <key>: <problem>".
engine::Result<SummationSpec> parseSummation(const QJsonObject& root, const QString& source);
engine::Result<SummationSpec> readSummationFile(const QString& path);

QJsonObject toJson(const SummationSpec& spec);
QString writeSummationFile(const QString& path, const SummationSpec& spec);  // error message or empty

// Everything the engine needs; reads the terms file relative to baseDir. Errors name the file.
engine::Result<engine::SummationParameters> toParameters(const SummationSpec& spec, const QString& baseDir);
// "normal x 10,000", "list of 12 terms", "file terms.txt sha256=..." for provenance.
QString describeTerms(const SummationSpec& spec, const QString& baseDir);

// The summation-order experiment kind: the same terms summed in many orders and precisions,
// judged against the exact sum (summation_spec.h reads the file, summation_job.h runs it).
const ExperimentKind& summationKind();

}  // namespace logitlab::app
