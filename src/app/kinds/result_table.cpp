#include "app/kinds/result_table.h"

#include "app/io/csv_writer.h"

#include <QLocale>

#include <cmath>

namespace logitlab::app {

namespace {

// A cell's value as a double, or NaN when it has none.
double realValue(const QVariant& value)
{
    if (!value.isValid() || value.isNull())
        return NAN;
    return value.toDouble();
}

}  // namespace

QStringList ResultTable::columnNames() const
{
    QStringList names;
    for (const auto& c : columns)
        names << c.name;
    return names;
}

QString csvCell(const ResultColumn& column, std::size_t row)
{
    const QVariant value = column.cell(row);
    switch (column.kind) {
    case ResultColumn::Kind::Text:
        return value.toString();
    case ResultColumn::Kind::Integer:
        return value.isValid() && !value.isNull() ? QString::number(value.toLongLong()) : QString();
    case ResultColumn::Kind::Real: {
        const double v = realValue(value);
        return std::isnan(v) ? QString() : CsvWriter::number(v);
    }
    }
    return {};
}

QString displayCell(const ResultColumn& column, std::size_t row)
{
    if (column.kind != ResultColumn::Kind::Real)
        return csvCell(column, row);
    const double v = realValue(column.cell(row));
    if (std::isnan(v))
        return {};
    if (column.decimals == ResultColumn::kEveryDigit)
        return QString::number(v, 'g', QLocale::FloatingPointShortest);
    return column.decimals >= 0 ? QString::number(v, 'f', column.decimals) : QString::number(v, 'g', 4);
}

QStringList csvRow(const ResultTable& table, std::size_t row)
{
    QStringList fields;
    fields.reserve(static_cast<qsizetype>(table.columns.size()));
    for (const auto& c : table.columns)
        fields << csvCell(c, row);
    return fields;
}

QString resultTableCsv(const Provenance& provenance, const ResultTable& table)
{
    CsvWriter csv(provenance, table.columnNames());
    for (std::size_t r = 0; r < table.rows; ++r)
        csv.addRow(csvRow(table, r));
    return csv.text();
}

}  // namespace logitlab::app
