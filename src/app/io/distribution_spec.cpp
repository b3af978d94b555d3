#include "app/io/distribution_spec.h"

#include "app/io/csv_writer.h"
#include "app/io/file_sha256.h"
#include "app/io/input_file.h"
#include "app/io/logits_file.h"
#include "engine/models/synthetic_logits.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

#include <cmath>

namespace logitlab::app {

namespace {

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
    const auto resolved = [&](const QString& path) { return resolvedPath(path, baseDir); };
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

engine::Result<engine::Distribution> resolveDistribution(const DistributionSpec& spec, const QString& baseDir)
{
    engine::Distribution d;
    switch (spec.kind) {
    case Kind::File: {
        if (spec.steps)
            return engine::Error{
                "distribution.steps: this reads one distribution; give \"row\" instead of a range of steps"};
        const auto resolved = [&](const QString& path) { return resolvedPath(path, baseDir); };
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
