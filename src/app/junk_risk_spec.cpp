#include "junk_risk_spec.h"

#include "json_object_reader.h"
#include "logits_file.h"
#include "rng_factory.h"
#include "save_text.h"
#include "synthetic_logits.h"

#include <QDir>
#include <QFile>
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
using engine::JunkDefinition;
using Kind = DistributionSpec::Kind;

constexpr qint64 kMaxSeed = qint64{1} << 53;  // every whole number up to here is exact in JSON
constexpr qint64 kMaxId = 2147483647;
constexpr qint64 kMaxTopK = 2147483647;

const QStringList kDistributionKinds{QStringLiteral("logits"), QStringLiteral("probabilities"), QStringLiteral("file"),
                                     QStringLiteral("zipf"), QStringLiteral("normal")};
const QStringList kJunkKinds{QStringLiteral("below-probability"), QStringLiteral("tail-mass"), QStringLiteral("ids")};

QStringList rngNameList()
{
    QStringList names;
    for (const auto& n : engine::rngNames())
        names << QString::fromStdString(n);
    return names;
}

DistributionSpec readDistribution(JsonObjectReader& r)
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
                throw JsonFieldError{r.keyPath(QStringLiteral("tokens")),
                                     QStringLiteral("has %1 names for %2 values").arg(tokens.size()).arg(values.size())};
            for (qsizetype i = 0; i < tokens.size(); ++i) {
                if (!tokens[i].isString())
                    throw JsonFieldError{r.keyPath(QStringLiteral("tokens")) + QLatin1Char('.') + QString::number(i),
                                         QStringLiteral("must be a string")};
                d.tokens << tokens[i].toString();
            }
        }
        break;
    }
    case Kind::File:
        d.path = r.string(QStringLiteral("path"), {});
        if (d.path.isEmpty())
            throw JsonFieldError{r.keyPath(QStringLiteral("path")), QStringLiteral("must not be empty")};
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
    }
    r.finish();
    return d;
}

JunkDefinition readJunk(JsonObjectReader& r)
{
    JunkDefinition j;
    j.kind = static_cast<JunkDefinition::Kind>(kJunkKinds.indexOf(r.string(QStringLiteral("kind"), {}, kJunkKinds)));
    switch (j.kind) {
    case JunkDefinition::Kind::BelowProbability:
        j.value = r.number(QStringLiteral("threshold"), {}, 0.0, 1.0);
        break;
    case JunkDefinition::Kind::TailMass:
        j.value = r.number(QStringLiteral("mass"), {}, 0.0, 1.0);
        break;
    case JunkDefinition::Kind::Ids: {
        const QJsonArray ids = r.array(QStringLiteral("ids"));
        if (ids.isEmpty())
            throw JsonFieldError{r.keyPath(QStringLiteral("ids")), QStringLiteral("must list at least one token id")};
        for (qsizetype i = 0; i < ids.size(); ++i)
            j.ids.push_back(static_cast<std::int32_t>(
                JsonObjectReader::integerAt(ids[i], r.keyPath(QStringLiteral("ids.%1").arg(i)), 0, kMaxId)));
        break;
    }
    }
    r.finish();
    return j;
}

SettingSpec readSetting(JsonObjectReader& r)
{
    SettingSpec s;
    s.sampler.temperature = r.number(QStringLiteral("temperature"), 1.0, 0.0, 1000.0);
    if (r.has(QStringLiteral("top_k")))
        s.sampler.topK = static_cast<int>(r.integer(QStringLiteral("top_k"), {}, 1, kMaxTopK));
    if (r.has(QStringLiteral("top_p"))) {
        s.sampler.topP = r.number(QStringLiteral("top_p"), {}, 0.0, 1.0);
        if (*s.sampler.topP == 0.0)
            throw JsonFieldError{r.keyPath(QStringLiteral("top_p")), QStringLiteral("must be in (0, 1], got 0")};
    }
    s.label = r.string(QStringLiteral("label"), QString::fromStdString(engine::describeSettings(s.sampler)));
    if (s.label.isEmpty())
        throw JsonFieldError{r.keyPath(QStringLiteral("label")), QStringLiteral("must not be empty")};
    r.finish();
    return s;
}

LengthSpec readLengths(JsonObjectReader& parent)
{
    const QString key = QStringLiteral("lengths");
    const QJsonValue value = parent.value(key);
    LengthSpec l;
    const qint64 maxLength = engine::JunkRiskExperiment::kMaxLength;
    if (value.isArray()) {
        const QJsonArray items = value.toArray();
        if (items.isEmpty() || items.size() > kMaxLengths)
            throw JsonFieldError{key, QStringLiteral("must hold 1..%1 lengths").arg(kMaxLengths)};
        for (qsizetype i = 0; i < items.size(); ++i) {
            const qint64 n = JsonObjectReader::integerAt(items[i], key + QLatin1Char('.') + QString::number(i), 1, maxLength);
            if (!l.list.isEmpty() && n <= l.list.back())
                throw JsonFieldError{key + QLatin1Char('.') + QString::number(i), QStringLiteral("lengths must be ascending without repeats")};
            l.list << n;
        }
        return l;
    }
    if (!value.isObject())
        throw JsonFieldError{key, QStringLiteral("must be an array of lengths or a range object")};
    JsonObjectReader r(value.toObject(), key);
    l.isRange = true;
    l.from = r.integer(QStringLiteral("from"), {}, 1, maxLength);
    l.to = r.integer(QStringLiteral("to"), {}, l.from, maxLength);
    l.logSpacing = r.string(QStringLiteral("spacing"), QStringLiteral("linear"),
                            {QStringLiteral("linear"), QStringLiteral("log")}) == QLatin1String("log");
    if (l.logSpacing)
        l.points = r.integer(QStringLiteral("points"), l.points, 2, kMaxLengths);
    else
        l.step = r.integer(QStringLiteral("step"), l.step, 1, maxLength);
    r.finish();
    if (!l.logSpacing && (l.to - l.from) / l.step + 1 > kMaxLengths)
        throw JsonFieldError{r.keyPath(QStringLiteral("step")), QStringLiteral("gives more than %1 lengths").arg(kMaxLengths)};
    return l;
}

JunkRiskSpec readSpec(const QJsonObject& root)
{
    // The version decides how everything else is read, so it is checked before anything else.
    const QJsonValue version = root.value(QStringLiteral("logitlab"));
    if (version.isUndefined())
        throw JsonFieldError{QStringLiteral("logitlab"), QStringLiteral("is missing: not a LogitLab experiment file")};
    if (!version.isDouble() || version.toDouble() != kExperimentFileVersion)
        throw JsonFieldError{QStringLiteral("logitlab"),
                             QStringLiteral("unknown version %1 (this build reads version %2)")
                                 .arg(QString::fromUtf8(QJsonDocument(QJsonArray{version}).toJson(QJsonDocument::Compact)).mid(1).chopped(1))
                                 .arg(kExperimentFileVersion)};
    JsonObjectReader r(root, QString());
    r.value(QStringLiteral("logitlab"));
    r.string(QStringLiteral("experiment"), {}, {QStringLiteral("junk-risk")});

    JunkRiskSpec spec;
    spec.name = r.string(QStringLiteral("name"), {});
    static const QRegularExpression namePattern(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$"));
    if (!namePattern.match(spec.name).hasMatch())
        throw JsonFieldError{QStringLiteral("name"), QStringLiteral("must be 1-100 letters, digits, '.', '_' or '-' "
                                                                    "(it names the output files), got \"%1\"").arg(spec.name)};
    spec.description = r.string(QStringLiteral("description"), QString());

    JsonObjectReader distribution(r.object(QStringLiteral("distribution")), QStringLiteral("distribution"));
    spec.distribution = readDistribution(distribution);
    JsonObjectReader junk(r.object(QStringLiteral("junk")), QStringLiteral("junk"));
    spec.junk = readJunk(junk);

    const QJsonArray settings = r.array(QStringLiteral("settings"));
    if (settings.isEmpty() || settings.size() > kMaxSettings)
        throw JsonFieldError{QStringLiteral("settings"), QStringLiteral("must hold 1..%1 settings").arg(kMaxSettings)};
    for (qsizetype i = 0; i < settings.size(); ++i) {
        const QString path = QStringLiteral("settings.%1").arg(i);
        if (!settings[i].isObject())
            throw JsonFieldError{path, QStringLiteral("must be an object")};
        JsonObjectReader setting(settings[i].toObject(), path);
        spec.settings << readSetting(setting);
    }

    spec.lengths = readLengths(r);
    spec.replies = r.integer(QStringLiteral("replies"), spec.replies, 0, engine::JunkRiskExperiment::kMaxReplies);
    spec.seed = r.integer(QStringLiteral("seed"), spec.seed, 0, kMaxSeed);
    spec.rng = r.string(QStringLiteral("rng"), spec.rng, rngNameList());
    if (r.has(QStringLiteral("chart"))) {
        JsonObjectReader chart(r.object(QStringLiteral("chart")), QStringLiteral("chart"));
        spec.logLengthAxis = chart.boolean(QStringLiteral("log_n"), spec.logLengthAxis);
        chart.finish();
    }
    r.finish();
    return spec;
}

QJsonArray numbers(const QList<double>& values)
{
    QJsonArray a;
    for (double v : values)
        a.append(v);
    return a;
}

}  // namespace

std::vector<std::int64_t> LengthSpec::expand() const
{
    std::vector<std::int64_t> out;
    if (!isRange) {
        out.assign(list.begin(), list.end());
        return out;
    }
    if (!logSpacing) {
        for (qint64 n = from; n <= to; n += step)
            out.push_back(n);
        return out;
    }
    // Geometric spacing rounded to whole tokens; rounding can repeat small lengths, so dedupe.
    const double ratio = std::log(static_cast<double>(to) / static_cast<double>(from));
    for (qint64 i = 0; i < points; ++i) {
        const double x = static_cast<double>(from) * std::exp(ratio * static_cast<double>(i) / static_cast<double>(points - 1));
        const auto n = std::clamp<std::int64_t>(std::llround(x), from, to);
        if (out.empty() || n > out.back())
            out.push_back(n);
    }
    if (out.back() != to)
        out.push_back(to);
    return out;
}

engine::Result<JunkRiskSpec> parseJunkRisk(const QJsonObject& root, const QString& source)
{
    try {
        return readSpec(root);
    } catch (const JsonFieldError& e) {
        return Error{QStringLiteral("%1: %2: %3").arg(source, e.key, e.message).toStdString()};
    }
}

engine::Result<QJsonObject> parseExperimentJson(const QByteArray& json, const QString& source)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        return Error{QStringLiteral("%1: malformed JSON at offset %2: %3").arg(source).arg(error.offset).arg(error.errorString()).toStdString()};
    if (!document.isObject())
        return Error{QStringLiteral("%1: the file must hold one JSON object").arg(source).toStdString()};
    return document.object();
}

engine::Result<QJsonObject> readExperimentJson(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error{QStringLiteral("%1: cannot read: %2").arg(path, file.errorString()).toStdString()};
    return parseExperimentJson(file.readAll(), path);
}

engine::Result<JunkRiskSpec> parseJunkRiskText(const QByteArray& json, const QString& source)
{
    const auto root = parseExperimentJson(json, source);
    if (!root)
        return Error{root.error()};
    return parseJunkRisk(root.value(), source);
}

engine::Result<JunkRiskSpec> readJunkRiskFile(const QString& path)
{
    const auto root = readExperimentJson(path);
    if (!root)
        return Error{root.error()};
    return parseJunkRisk(root.value(), path);
}

QJsonObject toJson(const JunkRiskSpec& spec)
{
    QJsonObject distribution{{QStringLiteral("kind"), kDistributionKinds[static_cast<int>(spec.distribution.kind)]}};
    const DistributionSpec& d = spec.distribution;
    switch (d.kind) {
    case Kind::Logits:
    case Kind::Probabilities:
        distribution.insert(d.kind == Kind::Logits ? QStringLiteral("logits") : QStringLiteral("probabilities"), numbers(d.values));
        if (!d.tokens.isEmpty())
            distribution.insert(QStringLiteral("tokens"), QJsonArray::fromStringList(d.tokens));
        break;
    case Kind::File:
        distribution.insert(QStringLiteral("path"), d.path);
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
    }

    QJsonObject junk{{QStringLiteral("kind"), QString::fromStdString(engine::junkKindName(spec.junk.kind))}};
    if (spec.junk.kind == JunkDefinition::Kind::BelowProbability)
        junk.insert(QStringLiteral("threshold"), spec.junk.value);
    else if (spec.junk.kind == JunkDefinition::Kind::TailMass)
        junk.insert(QStringLiteral("mass"), spec.junk.value);
    else {
        QJsonArray ids;
        for (auto id : spec.junk.ids)
            ids.append(id);
        junk.insert(QStringLiteral("ids"), ids);
    }

    QJsonArray settings;
    for (const SettingSpec& s : spec.settings) {
        QJsonObject o{{QStringLiteral("label"), s.label}, {QStringLiteral("temperature"), s.sampler.temperature}};
        if (s.sampler.topK)
            o.insert(QStringLiteral("top_k"), *s.sampler.topK);
        if (s.sampler.topP)
            o.insert(QStringLiteral("top_p"), *s.sampler.topP);
        settings.append(o);
    }

    QJsonValue lengths;
    if (!spec.lengths.isRange) {
        QJsonArray list;
        for (qint64 n : spec.lengths.list)
            list.append(n);
        lengths = list;
    } else {
        QJsonObject range{{QStringLiteral("from"), spec.lengths.from},
                          {QStringLiteral("to"), spec.lengths.to},
                          {QStringLiteral("spacing"), spec.lengths.logSpacing ? QStringLiteral("log") : QStringLiteral("linear")}};
        if (spec.lengths.logSpacing)
            range.insert(QStringLiteral("points"), spec.lengths.points);
        else
            range.insert(QStringLiteral("step"), spec.lengths.step);
        lengths = range;
    }

    QJsonObject root{{QStringLiteral("logitlab"), kExperimentFileVersion},
                     {QStringLiteral("experiment"), QStringLiteral("junk-risk")},
                     {QStringLiteral("name"), spec.name},
                     {QStringLiteral("distribution"), distribution},
                     {QStringLiteral("junk"), junk},
                     {QStringLiteral("settings"), settings},
                     {QStringLiteral("lengths"), lengths},
                     {QStringLiteral("replies"), spec.replies},
                     {QStringLiteral("seed"), spec.seed},
                     {QStringLiteral("rng"), spec.rng},
                     {QStringLiteral("chart"), QJsonObject{{QStringLiteral("log_n"), spec.logLengthAxis}}}};
    if (!spec.description.isEmpty())
        root.insert(QStringLiteral("description"), spec.description);
    return root;
}

QString writeJunkRiskFile(const QString& path, const JunkRiskSpec& spec)
{
    return saveBytes(path, QJsonDocument(toJson(spec)).toJson(QJsonDocument::Indented));
}

engine::Result<QJsonObject> applyOverride(QJsonObject root, const QString& assignment)
{
    const qsizetype eq = assignment.indexOf(QLatin1Char('='));
    const QStringList path = assignment.left(eq).split(QLatin1Char('.'));
    if (eq <= 0 || path.contains(QString()))
        return Error{QStringLiteral("--set: expected key=value (key like replies or junk.threshold), got \"%1\"").arg(assignment).toStdString()};
    const QString text = assignment.mid(eq + 1);
    // JSON when it parses as JSON (numbers, true, [1, 2], {...}), else the text as a string.
    QJsonParseError error;
    const QJsonDocument wrapped = QJsonDocument::fromJson(QStringLiteral("[%1]").arg(text).toUtf8(), &error);
    const QJsonValue value = error.error == QJsonParseError::NoError && wrapped.array().size() == 1
                                 ? wrapped.array().at(0)
                                 : QJsonValue(text);

    QString failure;
    std::function<QJsonValue(const QJsonValue&, qsizetype)> set = [&](const QJsonValue& node, qsizetype depth) -> QJsonValue {
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
        const QString path = QFileInfo(spec.path).isAbsolute() ? spec.path : QDir(baseDir).filePath(spec.path);
        return readLogitsFile(path);
    }
    case Kind::Zipf:
        d.logits = engine::zipfLogits(spec.vocabulary, spec.exponent);
        return d;
    case Kind::Normal:
        d.logits = engine::normalLogits(spec.vocabulary, spec.sigma, static_cast<std::uint64_t>(spec.seed));
        return d;
    case Kind::Logits:
    case Kind::Probabilities:
        break;
    }
    d.logits.resize(spec.values.size());
    for (qsizetype i = 0; i < spec.values.size(); ++i)
        d.logits[i] = spec.kind == Kind::Logits ? spec.values[i] : std::log(spec.values[i]);  // log 0 = -inf: never drawn
    for (const QString& t : spec.tokens)
        d.tokens.push_back(t.toStdString());
    return d;
}

engine::Result<engine::JunkRiskParameters> toParameters(const JunkRiskSpec& spec, const QString& baseDir)
{
    auto distribution = resolveDistribution(spec.distribution, baseDir);
    if (!distribution)
        return Error{distribution.error()};
    engine::JunkRiskParameters p;
    p.logits = std::move(distribution.value().logits);
    p.junk = spec.junk;
    for (const SettingSpec& s : spec.settings)
        p.decoders.push_back(engine::decoderFromSettings(s.label.toStdString(), s.sampler));
    p.lengths = spec.lengths.expand();
    p.replies = static_cast<std::uint64_t>(spec.replies);
    p.seed = static_cast<std::uint64_t>(spec.seed);
    p.rng = spec.rng.toStdString();
    return p;
}

}  // namespace logitlab::app
