// Strict reading of one JSON object from an experiment file: each value is checked for type and
// range, keys nobody asked for are errors, and every error names the key by its full path
// ("junk.threshold", "settings[1].top_p") so the message can point at the exact place.
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QSet>
#include <QString>
#include <QStringList>

#include <optional>

namespace logitlab::app {

// Thrown by JsonObjectReader and caught where the file is parsed; never crosses that boundary.
struct JsonFieldError {
    QString key;      // full path of the key
    QString message;  // what is wrong with it
};

class JsonObjectReader {
public:
    JsonObjectReader(QJsonObject object, QString path);

    bool has(const QString& key) const { return m_object.contains(key); }
    // The raw value, without counting it as read (for checks that come before the real read).
    QJsonValue peek(const QString& key) const { return m_object.value(key); }
    QString keyPath(const QString& key) const;

    // Missing keys take the default, or are an error without one.
    double number(const QString& key, std::optional<double> fallback, double min, double max);
    qint64 integer(const QString& key, std::optional<qint64> fallback, qint64 min, qint64 max);
    bool boolean(const QString& key, std::optional<bool> fallback);
    QString string(const QString& key, std::optional<QString> fallback, const QStringList& allowed = {});
    QJsonArray array(const QString& key);    // required
    QJsonObject object(const QString& key);  // required
    QJsonValue value(const QString& key);    // required, any type

    // Throws for the first key (in sorted order) that no getter read.
    void finish() const;

    // Checks for list elements, with the element's path in the message.
    static double numberAt(const QJsonValue& value, const QString& path, double min, double max);
    static qint64 integerAt(const QJsonValue& value, const QString& path, qint64 min, qint64 max);

private:
    QJsonValue take(const QString& key);
    // The value, which must be present and pass `is`; `expected` names the type in messages.
    QJsonValue require(const QString& key, bool (QJsonValue::*is)() const, const QString& expected);

    QJsonObject m_object;
    QString m_path;
    QSet<QString> m_read;
};

}  // namespace logitlab::app
