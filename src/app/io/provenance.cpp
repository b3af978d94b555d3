#include "app/io/provenance.h"

#include "app/io/build_info.h"
#include "engine/core/number_format.h"

namespace logitlab::app {

Provenance::Provenance(QString experiment) : m_experiment(std::move(experiment)) {}

Provenance& Provenance::add(const QString& key, const QString& value)
{
    m_parameters.append({key, value});
    return *this;
}

Provenance& Provenance::add(const QString& key, double value)
{
    return add(key, QString::fromStdString(engine::formatDouble(value)));
}

QList<QPair<QString, QString>> Provenance::entries() const
{
    QList<QPair<QString, QString>> all{
        {QStringLiteral("app"), QStringLiteral("LogitLab")},
        {QStringLiteral("version"), appVersion()},
        {QStringLiteral("git"), gitHash()},
        {QStringLiteral("experiment"), m_experiment},
    };
    all.append(m_parameters);
    return all;
}

QStringList Provenance::csvCommentLines() const
{
    QStringList lines;
    for (const auto& [key, value] : entries()) {
        QString flat = value;
        flat.replace(QLatin1Char('\n'), QLatin1Char(' ')).replace(QLatin1Char('\r'), QLatin1Char(' '));
        lines << QStringLiteral("# %1: %2").arg(key, flat);
    }
    return lines;
}

QString Provenance::asText() const
{
    QStringList lines;
    for (const auto& [key, value] : entries())
        lines << QStringLiteral("%1: %2").arg(key, value);
    return lines.join(QLatin1Char('\n'));
}

}  // namespace logitlab::app
