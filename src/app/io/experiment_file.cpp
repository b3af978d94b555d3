#include "app/io/experiment_file.h"

#include "app/io/input_file.h"
#include "app/io/json_duplicate_keys.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QRegularExpression>

#include <functional>

namespace logitlab::app {

using engine::Error;

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

}  // namespace logitlab::app
