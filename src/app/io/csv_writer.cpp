#include "app/io/csv_writer.h"

#include "engine/core/number_format.h"

#include <cassert>

namespace logitlab::app {

CsvWriter::CsvWriter(const Provenance& provenance, const QStringList& columns) : m_columns(columns.size())
{
    for (const QString& line : provenance.csvCommentLines())
        m_text += line + QLatin1Char('\n');
    addRow(columns);
}

CsvWriter& CsvWriter::addRow(const QStringList& fields)
{
    assert(fields.size() == m_columns);
    QStringList quoted;
    quoted.reserve(fields.size());
    for (const QString& f : fields)
        quoted << quoteField(f);
    m_text += quoted.join(QLatin1Char(',')) + QLatin1Char('\n');
    return *this;
}

QString CsvWriter::quoteField(const QString& field)
{
    const bool needsQuotes = field.contains(QLatin1Char(',')) || field.contains(QLatin1Char('"')) ||
                             field.contains(QLatin1Char('\n')) || field.contains(QLatin1Char('\r')) ||
                             field.startsWith(QLatin1Char('#'));
    if (!needsQuotes)
        return field;
    QString escaped = field;
    escaped.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + escaped + QLatin1Char('"');
}

QString CsvWriter::number(double value) { return QString::fromStdString(engine::formatDouble(value)); }

}  // namespace logitlab::app
