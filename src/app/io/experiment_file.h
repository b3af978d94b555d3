// What every experiment file shares (version 1 of the format, docs/experiments.md): the header
// {"logitlab": 1, "experiment": ..., "name": ..., "description": ...}, the distribution and
// decoding-setting objects, reading and --set overrides. Each experiment's own keys are read
// by its own spec (junk_risk_spec.h, seed_sweep_spec.h).
#pragma once

#include "app/io/json_object_reader.h"
#include "app/text/step_range.h"
#include "engine/core/input_limits.h"
#include "engine/core/result.h"
#include "engine/experiments/decoder.h"
#include "engine/sampler/distribution.h"
#include "engine/sampler/sampler_chain.h"
#include "engine/sampler/sampler_settings.h"

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

// A decoding setting of a junk-risk file: the lesson's three values, or any stateless chain
// of the zoo under a semantics preset ({"label", "semantics", "chain"}, as in seed sweeps).
struct SettingSpec {
    QString label;
    engine::SamplerSettings sampler;  // when `chain` is empty
    QString semantics = {};           // with `chain`: "lesson", "llama.cpp", "hf", "vllm"
    QString chain = {};               // the chain text, e.g. "top-k=40,min-p=0.05,temperature=0.8"
    QString arithmetic = {};          // with `chain`: "exact" or "library"; empty: the preset's default

    bool isChain() const { return !chain.isEmpty(); }
    // "temperature=1,top-p=0.9" or "llama.cpp: min-p=0.05,temperature=0.8".
    QString describe() const;
    // The arithmetic the setting runs in, by name ("exact" for the lesson's own settings).
    QString arithmeticUsed() const;

    friend bool operator==(const SettingSpec&, const SettingSpec&) = default;
};

inline constexpr int kExperimentFileVersion = 1;
inline constexpr qint64 kMaxVocabulary = static_cast<qint64>(engine::kMaxValues);  // one limit for every source
inline constexpr qint64 kMaxRow = qint64{1} << 40;   // `row` and `batch` of a file: the file's shape checks the range
inline constexpr qint64 kMaxSeed = qint64{1} << 53;  // every whole number up to here is exact in JSON

QStringList rngNameList();
QStringList semanticsNames();   // the presets, by the names files use
QStringList arithmeticNames();  // "exact", "library"
// The chain's arithmetic: `choice` ("exact", "library") or the preset's default when empty.
void applyArithmetic(engine::SamplerChain& chain, const QString& choice);
// The name of the arithmetic a chain under `semantics` runs in with `choice` ("exact", "library").
QString arithmeticUsed(const QString& semantics, const QString& choice);

struct ExperimentHeader {
    QString name;  // names the output files
    QString description;
};

// Reads and checks the header keys: the version first (it decides how the rest is read), then
// that "experiment" is `experiment`, then name and description. Throws JsonFieldError.
ExperimentHeader readHeader(JsonObjectReader& root, const QString& experiment);
QJsonObject headerToJson(const ExperimentHeader& header, const QString& experiment);

// The decoder a setting describes; an error names the chain's problem (a stateful stage).
engine::Result<engine::Decoder> settingDecoder(const SettingSpec& setting);

// The "distribution" and "settings[i]" objects. Throw JsonFieldError. A file's "steps" (a range
// of steps rather than one row) is read only for experiments that walk a reply (`allowSteps`);
// elsewhere it is an unknown key.
DistributionSpec readDistribution(JsonObjectReader& r, bool allowSteps = false);
SettingSpec readSetting(JsonObjectReader& r);
QJsonObject distributionToJson(const DistributionSpec& d);
QJsonObject settingToJson(const SettingSpec& s);

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

// For provenance: the distribution in one line; a file is named with its SHA-256.
QString describeDistribution(const DistributionSpec& d, const QString& baseDir);

// The file's top-level JSON object, before any key is checked (for --set overrides).
engine::Result<QJsonObject> parseExperimentJson(const QByteArray& json, const QString& source);
engine::Result<QJsonObject> readExperimentJson(const QString& path);
// `key=value` from the command line into the file's JSON before it is parsed: the key is a
// dotted path ("junk.threshold", "settings.1.top_p"), the value JSON or else a plain string.
engine::Result<QJsonObject> applyOverride(QJsonObject root, const QString& assignment);

// The logits the distribution describes (reading the file relative to baseDir for Kind::File).
// One distribution: a file with "steps" is refused here (step_source.h reads those).
engine::Result<engine::Distribution> resolveDistribution(const DistributionSpec& spec, const QString& baseDir);

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
