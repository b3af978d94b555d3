// Builds CSV text: a provenance header of `#` lines, a header row, then rows. Fields are quoted
// per RFC 4180 when they hold a comma, quote or line break; numbers use the shortest text that
// reads back to the same double.
#pragma once

#include "app/io/provenance.h"

#include <QString>
#include <QStringList>

namespace logitlab::app {

class CsvWriter {
public:
    CsvWriter(const Provenance& provenance, const QStringList& columns);

    CsvWriter& addRow(const QStringList& fields);
    QString text() const { return m_text; }

    static QString quoteField(const QString& field);
    static QString number(double value);

private:
    QString m_text;
    qsizetype m_columns;
};

}  // namespace logitlab::app
