// Where a result came from: app version and git hash, the page or experiment, every parameter,
// the sampler chain, RNG and seed. Rendered as `#` comment lines for CSV and as key/value text
// for chart metadata. No wall-clock time: the same inputs must give the same bytes.
#pragma once

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace logitlab::app {

class Provenance {
public:
    explicit Provenance(QString experiment);

    // Adds a parameter; parameters keep the order they were added in.
    Provenance& add(const QString& key, const QString& value);
    Provenance& add(const QString& key, double value);

    QString experiment() const { return m_experiment; }
    const QList<QPair<QString, QString>>& parameters() const { return m_parameters; }

    // All entries, starting with app, version, git hash and experiment.
    QList<QPair<QString, QString>> entries() const;
    QStringList csvCommentLines() const;  // "# key: value"
    QString asText() const;               // "key: value" lines, for metadata fields

private:
    QString m_experiment;
    QList<QPair<QString, QString>> m_parameters;
};

}  // namespace logitlab::app
