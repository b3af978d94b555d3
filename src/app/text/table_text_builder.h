// A table model or a result table as text (CSV with a provenance header, or tab-separated for
// the clipboard),
// built a slice of rows at a time so the UI thread can write a 262,144-row table between
// frames instead of blocking for a second. modelToCsv()/modelToTsv() run it in one go.
#pragma once

#include "app/io/csv_writer.h"
#include "app/kinds/result_table.h"

#include <QString>
#include <QStringList>

#include <optional>

QT_BEGIN_NAMESPACE
class QAbstractItemModel;
QT_END_NAMESPACE

namespace logitlab::app {

class TableTextBuilder {
public:
    // CSV when a provenance is given (numbers from Qt::EditRole at full precision), else TSV
    // (numbers as displayed, text cells whole from Qt::EditRole since views may show them cut,
    // tabs in cells turned into spaces). The model must outlive the builder and must not change
    // while it builds.
    TableTextBuilder(const QAbstractItemModel& model, std::optional<Provenance> provenance);
    // CSV of a result table: exactly what `logitlab-cli run` writes for it (resultTableCsv).
    TableTextBuilder(ResultTable table, const Provenance& provenance);

    // Appends up to `rows` more rows; true once every row is in.
    bool addRows(int rows);
    bool finished() const { return m_next >= m_rows; }
    int rowsDone() const { return m_next; }
    int rowCount() const { return m_rows; }
    QString text() const;

private:
    const QAbstractItemModel* m_model = nullptr;  // or:
    std::optional<ResultTable> m_table;
    std::optional<CsvWriter> m_csv;
    QStringList m_tsvLines;
    int m_rows;
    int m_next = 0;
};

}  // namespace logitlab::app
