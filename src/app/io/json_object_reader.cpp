#include "app/io/json_object_reader.h"

#include "engine/core/number_format.h"

#include <algorithm>
#include <cmath>

namespace logitlab::app {

namespace {

QString typeName(const QJsonValue& value)
{
    switch (value.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("a boolean");
    case QJsonValue::Double:
        return QStringLiteral("a number");
    case QJsonValue::String:
        return QStringLiteral("a string");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("nothing");
}

QString text(double value) { return QString::fromStdString(engine::formatDouble(value)); }

}  // namespace

JsonObjectReader::JsonObjectReader(QJsonObject object, QString path)
    : m_object(std::move(object)), m_path(std::move(path))
{
}

QString JsonObjectReader::keyPath(const QString& key) const
{
    return m_path.isEmpty() ? key : m_path + QLatin1Char('.') + key;
}

QJsonValue JsonObjectReader::take(const QString& key)
{
    m_read.insert(key);
    return m_object.value(key);
}

QJsonValue JsonObjectReader::require(const QString& key, bool (QJsonValue::*is)() const, const QString& expected)
{
    const QJsonValue v = take(key);
    if (v.isUndefined())
        throw JsonFieldError{keyPath(key), QStringLiteral("is missing")};
    if (!(v.*is)())
        throw JsonFieldError{keyPath(key), QStringLiteral("must be %1, not %2").arg(expected, typeName(v))};
    return v;
}

double JsonObjectReader::numberAt(const QJsonValue& value, const QString& path, double min, double max)
{
    if (!value.isDouble())
        throw JsonFieldError{path, QStringLiteral("must be a number, not %1").arg(typeName(value))};
    const double x = value.toDouble();
    if (!(x >= min && x <= max))
        throw JsonFieldError{path, QStringLiteral("must be in [%1, %2], got %3").arg(text(min), text(max), text(x))};
    return x;
}

qint64 JsonObjectReader::integerAt(const QJsonValue& value, const QString& path, qint64 min, qint64 max)
{
    if (!value.isDouble())
        throw JsonFieldError{path, QStringLiteral("must be a whole number, not %1").arg(typeName(value))};
    const double x = value.toDouble();
    if (x != std::floor(x))
        throw JsonFieldError{path, QStringLiteral("must be a whole number, got %1").arg(text(x))};
    // Doubles hold every whole number up to 2^53 exactly, which bounds what JSON can carry.
    if (!(x >= static_cast<double>(min) && x <= static_cast<double>(max)))
        throw JsonFieldError{path, QStringLiteral("must be in %1..%2, got %3").arg(min).arg(max).arg(text(x))};
    return static_cast<qint64>(x);
}

double JsonObjectReader::number(const QString& key, std::optional<double> fallback, double min, double max)
{
    const QJsonValue v = take(key);
    if (v.isUndefined() && fallback)
        return *fallback;
    if (v.isUndefined())
        throw JsonFieldError{keyPath(key), QStringLiteral("is missing")};
    return numberAt(v, keyPath(key), min, max);
}

qint64 JsonObjectReader::integer(const QString& key, std::optional<qint64> fallback, qint64 min, qint64 max)
{
    const QJsonValue v = take(key);
    if (v.isUndefined() && fallback)
        return *fallback;
    if (v.isUndefined())
        throw JsonFieldError{keyPath(key), QStringLiteral("is missing")};
    return integerAt(v, keyPath(key), min, max);
}

bool JsonObjectReader::boolean(const QString& key, std::optional<bool> fallback)
{
    if (fallback && !m_object.contains(key)) {
        m_read.insert(key);
        return *fallback;
    }
    return require(key, &QJsonValue::isBool, QStringLiteral("true or false")).toBool();
}

QString JsonObjectReader::string(const QString& key, std::optional<QString> fallback, const QStringList& allowed)
{
    if (fallback && !m_object.contains(key)) {
        m_read.insert(key);
        return *fallback;
    }
    const QString s = require(key, &QJsonValue::isString, QStringLiteral("a string")).toString();
    if (!allowed.isEmpty() && !allowed.contains(s))
        throw JsonFieldError{
            keyPath(key), QStringLiteral("must be one of %1, got \"%2\"").arg(allowed.join(QStringLiteral(", ")), s)};
    return s;
}

QJsonArray JsonObjectReader::array(const QString& key)
{
    return require(key, &QJsonValue::isArray, QStringLiteral("an array")).toArray();
}

QJsonObject JsonObjectReader::object(const QString& key)
{
    return require(key, &QJsonValue::isObject, QStringLiteral("an object")).toObject();
}

QJsonValue JsonObjectReader::value(const QString& key)
{
    const QJsonValue v = take(key);
    if (v.isUndefined())
        throw JsonFieldError{keyPath(key), QStringLiteral("is missing")};
    return v;
}

void JsonObjectReader::finish() const
{
    QStringList keys = m_object.keys();  // sorted
    for (const QString& key : keys)
        if (!m_read.contains(key))
            throw JsonFieldError{keyPath(key), QStringLiteral("unknown key")};
}

}  // namespace logitlab::app
