#include "app/kinds/summation_spec.h"

#include "app/kinds/summation_job.h"
#include <QObject>

#include "app/io/input_file.h"
#include "app/io/json_object_reader.h"
#include "app/io/save_text.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <limits>

namespace logitlab::app {

namespace {

using engine::Error;
using P = engine::SummationParameters;

QStringList toQStringList(const std::vector<std::string>& names)
{
    QStringList out;
    for (const auto& n : names)
        out << QString::fromStdString(n);
    return out;
}

SummationSpec readSpec(const QJsonObject& root)
{
    JsonObjectReader r(root, QString());
    SummationSpec spec;
    const ExperimentHeader header = readHeader(r, summationKind().id());
    spec.name = header.name;
    spec.description = header.description;

    JsonObjectReader terms(r.object(QStringLiteral("terms")), QStringLiteral("terms"));
    spec.distribution =
        terms.string(QStringLiteral("distribution"), {}, toQStringList(engine::termDistributionNames()));
    if (spec.distribution == QLatin1String("list")) {
        if (terms.has(QStringLiteral("values")) == terms.has(QStringLiteral("file")))
            throw JsonFieldError{terms.keyPath(QStringLiteral("values")),
                                 QStringLiteral("a list takes either \"values\" or \"file\", not both or neither")};
        if (terms.has(QStringLiteral("values"))) {
            const QJsonArray values = terms.array(QStringLiteral("values"));
            if (values.isEmpty() || values.size() > static_cast<qsizetype>(engine::kMaxValues))
                throw JsonFieldError{terms.keyPath(QStringLiteral("values")),
                                     QStringLiteral("must hold 1..%1 terms").arg(engine::kMaxValues)};
            for (qsizetype i = 0; i < values.size(); ++i)
                spec.values << JsonObjectReader::numberAt(values[i], terms.keyPath(QStringLiteral("values.%1").arg(i)),
                                                          std::numeric_limits<double>::lowest(),
                                                          std::numeric_limits<double>::max());
        } else {
            spec.file = terms.string(QStringLiteral("file"), {});
            if (spec.file.isEmpty())
                throw JsonFieldError{terms.keyPath(QStringLiteral("file")), QStringLiteral("must name a file")};
        }
    } else {
        spec.n = terms.integer(QStringLiteral("n"), {}, 1, P::kMaxTerms);
        spec.scale = terms.number(QStringLiteral("scale"), spec.scale, std::numeric_limits<double>::min(),
                                  std::numeric_limits<double>::max());
    }
    terms.finish();

    const QStringList formats = toQStringList(engine::floatFormatNames());
    spec.storage = r.string(QStringLiteral("storage"), spec.storage, formats);
    spec.accumulator = r.string(QStringLiteral("accumulator"), spec.accumulator, formats);
    if (r.has(QStringLiteral("methods"))) {
        const QStringList known = toQStringList(engine::sumMethodNames());
        const QJsonArray methods = r.array(QStringLiteral("methods"));
        spec.methods.clear();
        for (qsizetype i = 0; i < methods.size(); ++i) {
            const QString path = QStringLiteral("methods.%1").arg(i);
            const QString name = methods[i].toString();
            if (!methods[i].isString() || !known.contains(name))
                throw JsonFieldError{path, QStringLiteral("must be one of %1").arg(known.join(QStringLiteral(", ")))};
            if (spec.methods.contains(name))
                throw JsonFieldError{path, QStringLiteral("\"%1\" is listed twice").arg(name)};
            spec.methods << name;
        }
    }
    spec.shuffles = r.integer(QStringLiteral("shuffles"), spec.shuffles, 0, P::kMaxShuffles);
    if (spec.methods.isEmpty() && spec.shuffles == 0)
        throw JsonFieldError{QStringLiteral("methods"),
                             QStringLiteral("list at least one method, or ask for shuffles")};
    spec.seed = r.integer(QStringLiteral("seed"), spec.seed, 0, kMaxSeed);
    if (r.has(QStringLiteral("shape"))) {
        JsonObjectReader shape(r.object(QStringLiteral("shape")), QStringLiteral("shape"));
        spec.split = static_cast<int>(shape.integer(QStringLiteral("split"), spec.split, 1, P::kMaxSplit));
        spec.lanes = static_cast<int>(shape.integer(QStringLiteral("lanes"), spec.lanes, 1, P::kMaxLanes));
        if ((spec.lanes & (spec.lanes - 1)) != 0)
            throw JsonFieldError{shape.keyPath(QStringLiteral("lanes")),
                                 QStringLiteral("must be a power of two, got %1").arg(spec.lanes)};
        spec.threads = static_cast<int>(shape.integer(QStringLiteral("threads"), spec.threads, 1, P::kMaxThreads));
        shape.finish();
    }
    if (r.has(QStringLiteral("spread"))) {
        JsonObjectReader spread(r.object(QStringLiteral("spread")), QStringLiteral("spread"));
        spec.spreadMaxN = spread.integer(QStringLiteral("max_n"), spec.spreadMaxN, 0, P::kMaxTerms);
        qint64 power = 100;
        while (power < spec.spreadMaxN)
            power *= 10;
        if (spec.spreadMaxN != 0 && power != spec.spreadMaxN)
            throw JsonFieldError{spread.keyPath(QStringLiteral("max_n")),
                                 QStringLiteral("must be 0 (no spread) or a power of ten from 100 to 10000000, got %1")
                                     .arg(spec.spreadMaxN)};
        spec.spreadTerms = spread.integer(QStringLiteral("terms"), spec.spreadTerms, 1, P::kMaxSpreadTerms);
        spread.finish();
    }
    r.finish();
    return spec;
}

}  // namespace

SummationSpec::SummationSpec() : methods(toQStringList(engine::sumMethodNames())) {}

engine::Result<SummationSpec> parseSummation(const QJsonObject& root, const QString& source)
{
    return readStrictly<SummationSpec>(readSpec, root, source);
}

engine::Result<SummationSpec> readSummationFile(const QString& path)
{
    return readExperimentFile<SummationSpec>(path, parseSummation);
}

QJsonObject toJson(const SummationSpec& spec)
{
    QJsonObject terms{{QStringLiteral("distribution"), spec.distribution}};
    if (spec.distribution == QLatin1String("list")) {
        if (!spec.file.isEmpty()) {
            terms.insert(QStringLiteral("file"), spec.file);
        } else {
            QJsonArray values;
            for (double v : spec.values)
                values.append(v);
            terms.insert(QStringLiteral("values"), values);
        }
    } else {
        terms.insert(QStringLiteral("n"), spec.n);
        terms.insert(QStringLiteral("scale"), spec.scale);
    }
    QJsonObject root = headerToJson({spec.name, spec.description}, summationKind().id());
    for (const auto& [key, value] : std::initializer_list<std::pair<QString, QJsonValue>>{
             {QStringLiteral("terms"), terms},
             {QStringLiteral("storage"), spec.storage},
             {QStringLiteral("accumulator"), spec.accumulator},
             {QStringLiteral("methods"), QJsonArray::fromStringList(spec.methods)},
             {QStringLiteral("shuffles"), spec.shuffles},
             {QStringLiteral("seed"), spec.seed},
             {QStringLiteral("shape"), QJsonObject{{QStringLiteral("split"), spec.split},
                                                   {QStringLiteral("lanes"), spec.lanes},
                                                   {QStringLiteral("threads"), spec.threads}}},
             {QStringLiteral("spread"),
              QJsonObject{{QStringLiteral("max_n"), spec.spreadMaxN}, {QStringLiteral("terms"), spec.spreadTerms}}}})
        root.insert(key, value);
    return root;
}

QString writeSummationFile(const QString& path, const SummationSpec& spec)
{
    return saveBytes(path, QJsonDocument(toJson(spec)).toJson(QJsonDocument::Indented));
}

namespace {

QString termsPath(const SummationSpec& spec, const QString& baseDir) { return resolvedPath(spec.file, baseDir); }

}  // namespace

engine::Result<engine::SummationParameters> toParameters(const SummationSpec& spec, const QString& baseDir)
{
    engine::SummationParameters p;
    p.distribution = *engine::termDistributionFromName(spec.distribution.toStdString());
    p.n = spec.n;
    p.scale = spec.scale;
    if (p.distribution == engine::TermDistribution::List) {
        if (!spec.file.isEmpty()) {
            const QString path = termsPath(spec, baseDir);
            const auto bytes = readInputFile(path);
            if (!bytes)
                return Error{"terms.file: " + bytes.error()};
            auto terms = engine::parseTermsText(
                std::string_view(bytes->constData(), static_cast<std::size_t>(bytes->size())), spec.file.toStdString());
            if (!terms)
                return Error{"terms.file: " + terms.error()};
            p.listed = std::move(terms).value();
        } else {
            p.listed.assign(spec.values.begin(), spec.values.end());
        }
    }
    p.storage = *engine::floatFormatFromName(spec.storage.toStdString());
    p.accumulator = *engine::floatFormatFromName(spec.accumulator.toStdString());
    p.methods.clear();
    for (const QString& m : spec.methods)
        p.methods.push_back(*engine::sumMethodFromName(m.toStdString()));
    p.shuffles = spec.shuffles;
    p.seed = static_cast<std::uint64_t>(spec.seed);
    p.shape = {spec.split, spec.lanes, spec.threads};
    p.spreadMaxN = spec.spreadMaxN;
    p.spreadTerms = spec.spreadTerms;
    return p;
}

QString describeTerms(const SummationSpec& spec, const QString& baseDir)
{
    if (spec.distribution != QLatin1String("list"))
        return QStringLiteral("%1 x %2")
            .arg(QString::fromStdString(engine::describeTermDistribution(
                *engine::termDistributionFromName(spec.distribution.toStdString()), spec.scale)))
            .arg(spec.n);
    if (spec.file.isEmpty())
        return QStringLiteral("a list of %1 terms").arg(spec.values.size());
    const auto bytes = readInputFile(termsPath(spec, baseDir));
    const QString hash =
        bytes ? QString::fromLatin1(QCryptographicHash::hash(bytes.value(), QCryptographicHash::Sha256).toHex())
              : QStringLiteral("unreadable");
    return QStringLiteral("file %1 sha256=%2").arg(spec.file, hash);
}

const ExperimentKind& summationKind()
{
    static const SpecKind<SummationSpec> kind(
        QStringLiteral("summation-order"), QObject::tr("Summation order"), parseSummation,
        [](const SummationSpec& spec, const RunContext& c) {
            return summationResult(spec, c.baseDir, runSummation(spec, c.baseDir, c.source, c.threads, c.control),
                                   c.threads);
        });
    return kind;
}

}  // namespace logitlab::app
