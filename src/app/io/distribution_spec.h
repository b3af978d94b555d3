// The "distribution" object of an experiment file (docs/experiments.md): written logits or
// probabilities, a model's dump, Zipf or normal synthetic logits, or the lesson's q per token;
// its strict reader, its JSON, its one-line provenance and the logits it resolves to.
#pragma once

#include "app/io/json_object_reader.h"
#include "app/text/step_range.h"
#include "engine/core/input_limits.h"
#include "engine/core/result.h"
#include "engine/sampler/distribution.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace logitlab::app {

struct DistributionSpec {
    // QPerToken is the lesson's "each token has a 0.4% chance of being junk": two tokens, "other"
    // with 1 - q and "junk" with q (the junk-risk page's direct entry of q).
    enum class Kind { Logits, Probabilities, File, Zipf, Normal, QPerToken };
    Kind kind = Kind::Logits;
    QList<double> values;       // logits, or probabilities (Kind::Probabilities)
    QStringList tokens;         // optional names, one per value
    QString path;               // Kind::File: a logits file, relative to the experiment file
    QString array;              // Kind::File: the .npz member or safetensors tensor (docs/import.md)
    std::optional<qint64> row;  // Kind::File: the step of a multi-step array; negative from the end
    std::optional<qint64> batch;
    std::optional<StepRange> steps;  // Kind::File: a range of steps (a reply), not one row; step_range.h
    QString vocabularyFile;          // Kind::File: tokenizer.json or text, relative to the experiment file
    qint64 vocabulary = 262144;      // Zipf, Normal
    double exponent = 1.0;           // Zipf
    double sigma = 2.0;              // Normal
    qint64 seed = 1;                 // Normal
    double q = 0.004;                // QPerToken: the per-token junk probability, in [0, 1]

    friend bool operator==(const DistributionSpec&, const DistributionSpec&) = default;
};

inline constexpr qint64 kMaxVocabulary = static_cast<qint64>(engine::kMaxValues);  // one limit for every source
inline constexpr qint64 kMaxRow = qint64{1} << 40;   // `row` and `batch` of a file: the file's shape checks the range
inline constexpr qint64 kMaxSeed = qint64{1} << 53;  // every whole number up to here is exact in JSON

// Reads the "distribution" object. Throws JsonFieldError. A file's "steps" (a range of steps
// rather than one row) is read only for experiments that walk a reply (`allowSteps`); elsewhere
// it is an unknown key.
DistributionSpec readDistribution(JsonObjectReader& r, bool allowSteps = false);
QJsonObject distributionToJson(const DistributionSpec& d);

// For provenance: the distribution in one line; a file is named with its SHA-256.
QString describeDistribution(const DistributionSpec& d, const QString& baseDir);

// The logits the distribution describes (reading the file relative to baseDir for Kind::File).
// One distribution: a file with "steps" is refused here (step_source.h reads those).
engine::Result<engine::Distribution> resolveDistribution(const DistributionSpec& spec, const QString& baseDir);

}  // namespace logitlab::app
