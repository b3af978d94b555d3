#include "app/kinds/junk_risk_spec.h"

#include "app/kinds/junk_risk_job.h"
#include <QObject>

#include "app/io/json_object_reader.h"
#include "app/io/logits_file.h"
#include "app/io/save_text.h"
#include "engine/models/synthetic_logits.h"
#include "engine/rng/rng_factory.h"

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

constexpr qint64 kMaxId = 2147483647;
constexpr std::int32_t kQJunkId = 1;  // DistributionSpec::Kind::QPerToken's tokens: other, junk

const QStringList kJunkKinds{QStringLiteral("below-probability"), QStringLiteral("tail-mass"), QStringLiteral("ids")};

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
            const qint64 n =
                JsonObjectReader::integerAt(items[i], key + QLatin1Char('.') + QString::number(i), 1, maxLength);
            if (!l.list.isEmpty() && n <= l.list.back())
                throw JsonFieldError{key + QLatin1Char('.') + QString::number(i),
                                     QStringLiteral("lengths must be ascending without repeats")};
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
        throw JsonFieldError{r.keyPath(QStringLiteral("step")),
                             QStringLiteral("gives more than %1 lengths").arg(kMaxLengths)};
    return l;
}

JunkRiskSpec readSpec(const QJsonObject& root)
{
    JsonObjectReader r(root, QString());
    JunkRiskSpec spec;
    if (r.has(QStringLiteral("reply"))) {
        // The built-in model's reply replaces the distribution: its steps are the distributions.
        const ExperimentHeader header = readHeader(r, junkRiskKind().id());
        spec.name = header.name;
        spec.description = header.description;
        if (r.has(QStringLiteral("distribution")))
            throw JsonFieldError{QStringLiteral("reply"),
                                 QStringLiteral("give either \"reply\" (the built-in model) or "
                                                "\"distribution\", not both")};
        JsonObjectReader reply(r.object(QStringLiteral("reply")), QStringLiteral("reply"));
        spec.reply = readReply(reply);
    } else {
        readCommonKeys(r, junkRiskKind().id(), spec, /*allowSteps=*/true);
    }
    if (!spec.reply && spec.distribution.kind == Kind::QPerToken && !r.has(QStringLiteral("junk"))) {
        spec.junk = {JunkDefinition::Kind::Ids, 0.01, {kQJunkId}};  // the "junk" token of the pair
    } else {
        JsonObjectReader junk(r.object(QStringLiteral("junk")), QStringLiteral("junk"));
        spec.junk = readJunk(junk);
    }

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

    // Along a reply every step is a length: the rows are the reply's steps.
    if (spec.alongReply() && r.has(QStringLiteral("lengths")))
        throw JsonFieldError{QStringLiteral("lengths"),
                             QStringLiteral("not used along a reply: there is one row per step "
                                            "of the reply")};
    if (!spec.alongReply())
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
        const double x =
            static_cast<double>(from) * std::exp(ratio * static_cast<double>(i) / static_cast<double>(points - 1));
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
    return readStrictly<JunkRiskSpec>(readSpec, root, source);
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
    return readExperimentFile<JunkRiskSpec>(path, parseJunkRisk);
}

QJsonObject toJson(const JunkRiskSpec& spec)
{
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
    for (const SettingSpec& s : spec.settings)
        settings.append(settingToJson(s));

    QJsonValue lengths;
    if (!spec.lengths.isRange) {
        QJsonArray list;
        for (qint64 n : spec.lengths.list)
            list.append(n);
        lengths = list;
    } else {
        QJsonObject range{
            {QStringLiteral("from"), spec.lengths.from},
            {QStringLiteral("to"), spec.lengths.to},
            {QStringLiteral("spacing"), spec.lengths.logSpacing ? QStringLiteral("log") : QStringLiteral("linear")}};
        if (spec.lengths.logSpacing)
            range.insert(QStringLiteral("points"), spec.lengths.points);
        else
            range.insert(QStringLiteral("step"), spec.lengths.step);
        lengths = range;
    }

    QJsonObject root = headerToJson({spec.name, spec.description}, junkRiskKind().id());
    if (spec.reply)
        root.insert(QStringLiteral("reply"), replyToJson(*spec.reply));
    else
        root.insert(QStringLiteral("distribution"), distributionToJson(spec.distribution));
    if (!spec.alongReply())
        root.insert(QStringLiteral("lengths"), lengths);
    for (const auto& [key, value] : std::initializer_list<std::pair<QString, QJsonValue>>{
             {QStringLiteral("junk"), junk},
             {QStringLiteral("settings"), settings},
             {QStringLiteral("replies"), spec.replies},
             {QStringLiteral("seed"), spec.seed},
             {QStringLiteral("rng"), spec.rng},
             {QStringLiteral("chart"), QJsonObject{{QStringLiteral("log_n"), spec.logLengthAxis}}}})
        root.insert(key, value);
    return root;
}

QString writeJunkRiskFile(const QString& path, const JunkRiskSpec& spec)
{
    return saveBytes(path, QJsonDocument(toJson(spec)).toJson(QJsonDocument::Indented));
}

namespace {

engine::Result<std::vector<engine::Decoder>> settingDecoders(const QList<SettingSpec>& settings)
{
    std::vector<engine::Decoder> decoders;
    for (qsizetype i = 0; i < settings.size(); ++i) {
        auto decoder = settingDecoder(settings[i]);
        if (!decoder)
            return Error{QStringLiteral("settings.%1.chain: ").arg(i).toStdString() + decoder.error()};
        decoders.push_back(std::move(decoder).value());
    }
    return decoders;
}

}  // namespace

engine::Result<engine::ReplyJunkRiskParameters> toReplyParameters(const JunkRiskSpec& spec)
{
    auto decoders = settingDecoders(spec.settings);
    if (!decoders)
        return Error{decoders.error()};
    engine::ReplyJunkRiskParameters p;
    p.junk = spec.junk;
    p.decoders = std::move(decoders).value();
    p.replies = static_cast<std::uint64_t>(spec.replies);
    p.seed = static_cast<std::uint64_t>(spec.seed);
    p.rng = spec.rng.toStdString();
    return p;
}

engine::Result<engine::JunkRiskParameters> toParameters(const JunkRiskSpec& spec, const QString& baseDir)
{
    auto distribution = resolveDistribution(spec.distribution, baseDir);
    if (!distribution)
        return Error{distribution.error()};
    engine::JunkRiskParameters p;
    p.logits = std::move(distribution.value().logits);
    p.tokens = std::move(distribution.value().tokens);
    p.junk = spec.junk;
    auto decoders = settingDecoders(spec.settings);
    if (!decoders)
        return Error{decoders.error()};
    p.decoders = std::move(decoders).value();
    p.lengths = spec.lengths.expand();
    p.replies = static_cast<std::uint64_t>(spec.replies);
    p.seed = static_cast<std::uint64_t>(spec.seed);
    p.rng = spec.rng.toStdString();
    return p;
}

const ExperimentKind& junkRiskKind()
{
    static const SpecKind<JunkRiskSpec> kind(
        QStringLiteral("junk-risk"), QObject::tr("Junk risk"), parseJunkRisk,
        [](const JunkRiskSpec& spec, const RunContext& c) {
            return junkRiskResult(spec, c.baseDir, runJunkRisk(spec, c.baseDir, c.source, c.threads, c.control),
                                  c.threads);
        });
    return kind;
}

}  // namespace logitlab::app
