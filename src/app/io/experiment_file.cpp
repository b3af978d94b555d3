#include "app/io/experiment_file.h"

#include "app/io/csv_writer.h"
#include "app/io/file_sha256.h"
#include "app/io/input_file.h"
#include "app/io/json_duplicate_keys.h"
#include "app/io/json_object_reader.h"
#include "app/io/logits_file.h"
#include "app/text/sampler_settings_json.h"
#include "engine/models/synthetic_logits.h"
#include "engine/rng/rng_factory.h"
#include "engine/sampler/arithmetic.h"
#include "engine/sampler/semantics.h"
#include "engine/sampler/stateless_chain.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QRegularExpression>

#include <cmath>
#include <functional>

namespace logitlab::app {

namespace {

using engine::Error;
using Kind = DistributionSpec::Kind;

const QStringList kDistributionKinds{QStringLiteral("logits"), QStringLiteral("probabilities"),
                                     QStringLiteral("file"),   QStringLiteral("zipf"),
                                     QStringLiteral("normal"), QStringLiteral("q-per-token")};

// The two-token distribution of Kind::QPerToken: log(1 - q) and log(q), so softmax at T = 1 gives
// back q (log 0 = -inf: a q of 0 or 1 leaves one token that is never drawn).
Eigen::ArrayXd qPerTokenLogits(double q)
{
    Eigen::ArrayXd logits(2);
    logits << std::log1p(-q), std::log(q);
    return logits;
}

QJsonArray numbers(const QList<double>& values)
{
    QJsonArray a;
    for (double v : values)
        a.append(v);
    return a;
}

}  // namespace

QStringList semanticsNames()
{
    QStringList names;
    for (engine::Semantics s : engine::allSemantics())
        names << QString::fromStdString(engine::semanticsName(s));
    return names;
}

QStringList arithmeticNames()
{
    QStringList names;
    for (engine::Arithmetic a : engine::allArithmetics())
        names << QString::fromStdString(engine::arithmeticName(a));
    return names;
}

void applyArithmetic(engine::SamplerChain& chain, const QString& choice)
{
    chain.setArithmetic(engine::resolveArithmetic(choice.toStdString(), chain.semantics()));
}

QString arithmeticUsed(const QString& semantics, const QString& choice)
{
    const auto preset = engine::parseSemantics(semantics.toStdString()).value_or(engine::Semantics::Lesson);
    return QString::fromStdString(engine::arithmeticName(engine::resolveArithmetic(choice.toStdString(), preset)));
}

QString SettingSpec::arithmeticUsed() const
{
    return isChain() ? app::arithmeticUsed(semantics, arithmetic) : app::arithmeticUsed(QStringLiteral("lesson"), {});
}

QString SettingSpec::describe() const
{
    return isChain() ? semantics + QStringLiteral(": ") + chain
                     : QString::fromStdString(engine::describeSettings(sampler));
}

engine::Result<engine::Decoder> settingDecoder(const SettingSpec& s)
{
    if (!s.isChain())
        return engine::decoderFromSettings(s.label.toStdString(), s.sampler);
    auto chain =
        engine::parseStatelessChain(s.semantics.toStdString(), s.chain.toStdString(),
                                    "a reply's risk at one fixed distribution per step needs a stateless chain");
    if (!chain)
        return Error{chain.error()};
    engine::SamplerChain built = std::move(chain).value();
    applyArithmetic(built, s.arithmetic);
    return engine::decoderFromChain(s.label.toStdString(), built);
}

QStringList rngNameList()
{
    QStringList names;
    for (const auto& n : engine::rngNames())
        names << QString::fromStdString(n);
    return names;
}

ExperimentHeader readHeader(JsonObjectReader& r, const QString& experiment)
{
    // The version decides how everything else is read, so it is checked before anything else.
    const QJsonValue version = r.peek(QStringLiteral("logitlab"));
    if (version.isUndefined())
        throw JsonFieldError{QStringLiteral("logitlab"), QStringLiteral("is missing: not a LogitLab experiment file")};
    if (!version.isDouble() || version.toDouble() != kExperimentFileVersion)
        throw JsonFieldError{
            QStringLiteral("logitlab"),
            QStringLiteral("unknown version %1 (this build reads version %2)")
                .arg(QString::fromUtf8(QJsonDocument(QJsonArray{version}).toJson(QJsonDocument::Compact))
                         .mid(1)
                         .chopped(1))
                .arg(kExperimentFileVersion)};
    r.value(QStringLiteral("logitlab"));
    r.string(QStringLiteral("experiment"), {}, {experiment});

    ExperimentHeader spec;
    spec.name = r.string(QStringLiteral("name"), {});
    static const QRegularExpression namePattern(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$"));
    if (!namePattern.match(spec.name).hasMatch())
        throw JsonFieldError{QStringLiteral("name"), QStringLiteral("must be 1-100 letters, digits, '.', '_' or '-' "
                                                                    "(it names the output files), got \"%1\"")
                                                         .arg(spec.name)};
    spec.description = r.string(QStringLiteral("description"), QString());
    return spec;
}

QJsonObject headerToJson(const ExperimentHeader& header, const QString& experiment)
{
    QJsonObject root{{QStringLiteral("logitlab"), kExperimentFileVersion},
                     {QStringLiteral("experiment"), experiment},
                     {QStringLiteral("name"), header.name}};
    if (!header.description.isEmpty())
        root.insert(QStringLiteral("description"), header.description);
    return root;
}

DistributionSpec readDistribution(JsonObjectReader& r, bool allowSteps)
{
    DistributionSpec d;
    d.kind = static_cast<Kind>(kDistributionKinds.indexOf(r.string(QStringLiteral("kind"), {}, kDistributionKinds)));
    switch (d.kind) {
    case Kind::Logits:
    case Kind::Probabilities: {
        const QString key = d.kind == Kind::Logits ? QStringLiteral("logits") : QStringLiteral("probabilities");
        const QJsonArray values = r.array(key);
        if (values.isEmpty() || values.size() > kMaxVocabulary)
            throw JsonFieldError{r.keyPath(key), QStringLiteral("must hold 1..%1 numbers").arg(kMaxVocabulary)};
        bool anyPositive = false;
        for (qsizetype i = 0; i < values.size(); ++i) {
            const QString path = r.keyPath(key) + QLatin1Char('.') + QString::number(i);
            const double x = d.kind == Kind::Logits ? JsonObjectReader::numberAt(values[i], path, -1e300, 1e300)
                                                    : JsonObjectReader::numberAt(values[i], path, 0.0, 1.0);
            anyPositive = anyPositive || x > 0.0;
            d.values << x;
        }
        if (d.kind == Kind::Probabilities && !anyPositive)
            throw JsonFieldError{r.keyPath(key), QStringLiteral("at least one probability must be above 0")};
        if (r.has(QStringLiteral("tokens"))) {
            const QJsonArray tokens = r.array(QStringLiteral("tokens"));
            if (tokens.size() != values.size())
                throw JsonFieldError{
                    r.keyPath(QStringLiteral("tokens")),
                    QStringLiteral("has %1 names for %2 values").arg(tokens.size()).arg(values.size())};
            for (qsizetype i = 0; i < tokens.size(); ++i) {
                if (!tokens[i].isString())
                    throw JsonFieldError{r.keyPath(QStringLiteral("tokens")) + QLatin1Char('.') + QString::number(i),
                                         QStringLiteral("must be a string")};
                if (auto problem = engine::tokenNameProblem(tokens[i].toString().toStdString()))
                    throw JsonFieldError{r.keyPath(QStringLiteral("tokens")) + QLatin1Char('.') + QString::number(i),
                                         QString::fromStdString(*problem)};
                d.tokens << tokens[i].toString();
            }
        }
        break;
    }
    case Kind::File:
        d.path = r.string(QStringLiteral("path"), {});
        if (d.path.isEmpty())
            throw JsonFieldError{r.keyPath(QStringLiteral("path")), QStringLiteral("must not be empty")};
        // A model's dump (docs/import.md): which array, which row, which names.
        if (r.has(QStringLiteral("array")))
            d.array = r.string(QStringLiteral("array"), {});
        if (r.has(QStringLiteral("row")))
            d.row = r.integer(QStringLiteral("row"), {}, -kMaxRow, kMaxRow);
        if (r.has(QStringLiteral("batch")))
            d.batch = r.integer(QStringLiteral("batch"), {}, -kMaxRow, kMaxRow);
        if (allowSteps && r.has(QStringLiteral("steps"))) {
            if (d.row)
                throw JsonFieldError{
                    r.keyPath(QStringLiteral("steps")),
                    QStringLiteral("cannot be given with \"row\": a row is one step, steps a range of them")};
            d.steps = readStepRange(r);
        }
        // Not "vocabulary": that is V (an integer) for zipf and normal.
        if (r.has(QStringLiteral("vocabulary-file")))
            d.vocabularyFile = r.string(QStringLiteral("vocabulary-file"), {});
        break;
    case Kind::Zipf:
        d.vocabulary = r.integer(QStringLiteral("vocabulary"), d.vocabulary, 2, kMaxVocabulary);
        d.exponent = r.number(QStringLiteral("exponent"), d.exponent, 0.0, 10.0);
        break;
    case Kind::Normal:
        d.vocabulary = r.integer(QStringLiteral("vocabulary"), d.vocabulary, 2, kMaxVocabulary);
        d.sigma = r.number(QStringLiteral("sigma"), d.sigma, 0.0, 100.0);
        d.seed = r.integer(QStringLiteral("seed"), d.seed, 0, kMaxSeed);
        break;
    case Kind::QPerToken:
        d.q = r.number(QStringLiteral("q"), {}, 0.0, 1.0);
        break;
    }
    r.finish();
    return d;
}

SettingSpec readSetting(JsonObjectReader& r)
{
    SettingSpec s;
    if (r.has(QStringLiteral("chain"))) {
        // Any stateless chain of the zoo, as in seed sweeps; the lesson's keys do not mix in.
        s.semantics = r.string(QStringLiteral("semantics"), QStringLiteral("lesson"), semanticsNames());
        s.chain = r.string(QStringLiteral("chain"), {});
        s.arithmetic = r.string(QStringLiteral("arithmetic"), QString(), arithmeticNames());
        if (s.chain.trimmed().isEmpty())
            throw JsonFieldError{r.keyPath(QStringLiteral("chain")), QStringLiteral("must not be empty")};
        if (auto decoder = settingDecoder(s); !decoder) {
            // Engine messages often start with the key already ("chain: ..."): say it once.
            QString message = QString::fromStdString(decoder.error());
            if (message.startsWith(QStringLiteral("chain: ")))
                message = message.mid(7);
            throw JsonFieldError{r.keyPath(QStringLiteral("chain")), message};
        }
        s.label = r.string(QStringLiteral("label"), s.describe());
        if (s.label.isEmpty())
            throw JsonFieldError{r.keyPath(QStringLiteral("label")), QStringLiteral("must not be empty")};
        r.finish();  // temperature, top-k or top-p beside a chain is an unknown key here
        return s;
    }
    // The lesson's three by the one table of sampler parameters (older files' top_k, top_p too).
    engine::ChainSettings settings;
    for (const engine::SamplerParameter& p : engine::samplerParameters()) {
        if (p.group != engine::ParameterGroup::Lesson)
            continue;
        const QString key = readSamplerSetting(r, p, settings);
        if (p.field == &engine::ChainSettings::topP && settings.topP == 0.0)
            throw JsonFieldError{r.keyPath(key), QStringLiteral("must be in (0, 1], got 0")};
    }
    s.sampler.temperature = settings.temperature.value_or(1.0);
    if (settings.topK)
        s.sampler.topK = static_cast<int>(*settings.topK);
    s.sampler.topP = settings.topP;
    s.label = r.string(QStringLiteral("label"), QString::fromStdString(engine::describeSettings(s.sampler)));
    if (s.label.isEmpty())
        throw JsonFieldError{r.keyPath(QStringLiteral("label")), QStringLiteral("must not be empty")};
    r.finish();
    return s;
}

QJsonObject distributionToJson(const DistributionSpec& d)
{
    QJsonObject distribution{{QStringLiteral("kind"), kDistributionKinds[static_cast<int>(d.kind)]}};
    switch (d.kind) {
    case Kind::Logits:
    case Kind::Probabilities:
        distribution.insert(d.kind == Kind::Logits ? QStringLiteral("logits") : QStringLiteral("probabilities"),
                            numbers(d.values));
        if (!d.tokens.isEmpty())
            distribution.insert(QStringLiteral("tokens"), QJsonArray::fromStringList(d.tokens));
        break;
    case Kind::File:
        distribution.insert(QStringLiteral("path"), d.path);
        if (!d.array.isEmpty())
            distribution.insert(QStringLiteral("array"), d.array);
        if (d.row)
            distribution.insert(QStringLiteral("row"), *d.row);
        if (d.batch)
            distribution.insert(QStringLiteral("batch"), *d.batch);
        if (d.steps)
            distribution.insert(QStringLiteral("steps"), stepRangeToJson(*d.steps));
        if (!d.vocabularyFile.isEmpty())
            distribution.insert(QStringLiteral("vocabulary-file"), d.vocabularyFile);
        break;
    case Kind::Zipf:
        distribution.insert(QStringLiteral("vocabulary"), d.vocabulary);
        distribution.insert(QStringLiteral("exponent"), d.exponent);
        break;
    case Kind::Normal:
        distribution.insert(QStringLiteral("vocabulary"), d.vocabulary);
        distribution.insert(QStringLiteral("sigma"), d.sigma);
        distribution.insert(QStringLiteral("seed"), d.seed);
        break;
    case Kind::QPerToken:
        distribution.insert(QStringLiteral("q"), d.q);
        break;
    }

    return distribution;
}

QJsonObject settingToJson(const SettingSpec& s)
{
    if (s.isChain()) {
        QJsonObject o{{QStringLiteral("label"), s.label},
                      {QStringLiteral("semantics"), s.semantics},
                      {QStringLiteral("chain"), s.chain}};
        if (!s.arithmetic.isEmpty())
            o.insert(QStringLiteral("arithmetic"), s.arithmetic);
        return o;
    }
    QJsonObject o = samplerSettingsToJson(s.sampler);
    o.insert(QStringLiteral("label"), s.label);
    return o;
}

QString describeDistribution(const DistributionSpec& d, const QString& baseDir)
{
    switch (d.kind) {
    case DistributionSpec::Kind::Logits:
        return QStringLiteral("logits (%1 tokens)").arg(d.values.size());
    case DistributionSpec::Kind::Probabilities:
        return QStringLiteral("probabilities (%1 tokens)").arg(d.values.size());
    case DistributionSpec::Kind::Zipf:
        return QStringLiteral("zipf vocabulary=%1 exponent=%2").arg(d.vocabulary).arg(CsvWriter::number(d.exponent));
    case DistributionSpec::Kind::Normal:
        return QStringLiteral("normal vocabulary=%1 sigma=%2 seed=%3")
            .arg(d.vocabulary)
            .arg(CsvWriter::number(d.sigma))
            .arg(d.seed);
    case DistributionSpec::Kind::QPerToken:
        return QStringLiteral("q-per-token q=%1 (tokens other, junk)").arg(CsvWriter::number(d.q));
    case DistributionSpec::Kind::File:
        break;
    }
    // The file's hash, so a CSV can be matched to the exact logits it came from (streamed: a
    // model's dump may be gigabytes).
    const auto resolved = [&](const QString& path) {
        return QFileInfo(path).isAbsolute() ? path : QDir(baseDir).filePath(path);
    };
    QString text = QStringLiteral("file %1 sha256=%2")
                       .arg(d.path, fileSha256(resolved(d.path)).value_or(QStringLiteral("unreadable")));
    if (!d.array.isEmpty())
        text += QStringLiteral(" array=%1").arg(d.array);
    if (d.batch)
        text += QStringLiteral(" batch=%1").arg(*d.batch);
    if (d.row)
        text += QStringLiteral(" row=%1").arg(*d.row);
    if (d.steps)
        text += QStringLiteral(" steps=%1").arg(describeStepRange(*d.steps));
    if (!d.vocabularyFile.isEmpty())
        text +=
            QStringLiteral(" vocabulary-file %1 sha256=%2")
                .arg(d.vocabularyFile, fileSha256(resolved(d.vocabularyFile)).value_or(QStringLiteral("unreadable")));
    return text;
}

engine::Result<QJsonObject> parseExperimentJson(const QByteArray& json, const QString& source)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        return Error{QStringLiteral("%1: malformed JSON at offset %2: %3")
                         .arg(source)
                         .arg(error.offset)
                         .arg(error.errorString())
                         .toStdString()};
    if (!document.isObject())
        return Error{QStringLiteral("%1: the file must hold one JSON object").arg(source).toStdString()};
    if (const auto duplicate = duplicateJsonKeyProblem(json))
        return Error{QStringLiteral("%1: %2").arg(source, *duplicate).toStdString()};
    return document.object();
}

engine::Result<QJsonObject> readExperimentJson(const QString& path)
{
    const auto bytes = readInputFile(path);
    if (!bytes)
        return Error{bytes.error()};
    return parseExperimentJson(bytes.value(), path);
}

engine::Result<QJsonObject> applyOverride(QJsonObject root, const QString& assignment)
{
    const qsizetype eq = assignment.indexOf(QLatin1Char('='));
    const QStringList path = assignment.left(eq).split(QLatin1Char('.'));
    if (eq <= 0 || path.contains(QString()))
        return Error{QStringLiteral("--set: expected key=value (key like replies or junk.threshold), got \"%1\"")
                         .arg(assignment)
                         .toStdString()};
    const QString text = assignment.mid(eq + 1);
    // JSON when it parses as JSON (numbers, true, [1, 2], {...}), else the text as a string.
    QJsonParseError error;
    const QJsonDocument wrapped = QJsonDocument::fromJson(QStringLiteral("[%1]").arg(text).toUtf8(), &error);
    const QJsonValue value = error.error == QJsonParseError::NoError && wrapped.array().size() == 1
                                 ? wrapped.array().at(0)
                                 : QJsonValue(text);
    if (value.isObject() || value.isArray()) {
        if (const auto duplicate = duplicateJsonKeyProblem(text.toUtf8()))
            return Error{QStringLiteral("--set %1: %2").arg(assignment.left(eq), *duplicate).toStdString()};
    }

    QString failure;
    std::function<QJsonValue(const QJsonValue&, qsizetype)> set = [&](const QJsonValue& node,
                                                                      qsizetype depth) -> QJsonValue {
        if (depth == path.size())
            return value;
        const QString& part = path[depth];
        if (node.isArray()) {
            QJsonArray array = node.toArray();
            bool isIndex = false;
            const qsizetype index = part.toLongLong(&isIndex);
            if (!isIndex || index < 0 || index >= array.size()) {
                failure = QStringLiteral("%1: no element %2").arg(path.mid(0, depth).join(QLatin1Char('.')), part);
                return node;
            }
            array[index] = set(array[index], depth + 1);
            return array;
        }
        QJsonObject object = node.isObject() ? node.toObject() : QJsonObject();
        if (!node.isObject() && !node.isUndefined()) {
            failure = QStringLiteral("%1: is not an object").arg(path.mid(0, depth).join(QLatin1Char('.')));
            return node;
        }
        object.insert(part, set(object.value(part), depth + 1));
        return object;
    };
    const QJsonValue result = set(root, 0);
    if (!failure.isEmpty())
        return Error{(QStringLiteral("--set ") + failure).toStdString()};
    return result.toObject();
}

engine::Result<engine::Distribution> resolveDistribution(const DistributionSpec& spec, const QString& baseDir)
{
    engine::Distribution d;
    switch (spec.kind) {
    case Kind::File: {
        if (spec.steps)
            return engine::Error{
                "distribution.steps: this reads one distribution; give \"row\" instead of a range of steps"};
        const auto resolved = [&](const QString& path) {
            return QFileInfo(path).isAbsolute() ? path : QDir(baseDir).filePath(path);
        };
        LogitsFileRequest request;
        request.array = spec.array;
        request.row = {spec.batch, spec.row};
        if (!spec.vocabularyFile.isEmpty())
            request.vocabulary = resolved(spec.vocabularyFile);
        auto read = readLogitsFile(resolved(spec.path), request);
        if (!read)
            return engine::Error{read.error()};
        return std::move(read->distribution);
    }
    case Kind::Zipf:
        d.logits = engine::zipfLogits(spec.vocabulary, spec.exponent);
        return d;
    case Kind::Normal:
        d.logits = engine::normalLogits(spec.vocabulary, spec.sigma, static_cast<std::uint64_t>(spec.seed));
        return d;
    case Kind::QPerToken:
        d.logits = qPerTokenLogits(spec.q);
        d.tokens = {"other", "junk"};
        return d;
    case Kind::Logits:
    case Kind::Probabilities:
        break;
    }
    d.logits.resize(spec.values.size());
    for (qsizetype i = 0; i < spec.values.size(); ++i)
        d.logits[i] =
            spec.kind == Kind::Logits ? spec.values[i] : std::log(spec.values[i]);  // log 0 = -inf: never drawn
    for (const QString& t : spec.tokens)
        d.tokens.push_back(t.toStdString());
    return d;
}

}  // namespace logitlab::app
