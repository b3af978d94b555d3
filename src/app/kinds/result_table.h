// One result table, declared once and read by everything that shows or writes it: the CSV that
// `logitlab-cli run` and File > Export table write (resultTableCsv), and the Qt model the pages
// show (ui::ResultTableModel). Each column has a CSV name, a screen title, a kind, and a
// function from row index to cell; the functions read shared, immutable data captured when the
// table is made, so a 262,144-row table costs nothing until its cells are read.
#pragma once

#include "app/io/provenance.h"

#include <QString>
#include <QVariant>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace logitlab::app {

struct ResultColumn {
    enum class Kind { Text, Integer, Real };

    QString name;   // CSV header: "p_any_mc"
    QString title;  // on screen: "P(any), Monte Carlo"
    Kind kind = Kind::Real;
    // The cell of `row`: a QString, a whole number or a double. An invalid QVariant, or a NaN,
    // is an empty cell ("no value here", e.g. a Monte Carlo column when no replies were drawn).
    std::function<QVariant(std::size_t row)> cell;
    QString toolTip;  // what the column means, for the header's tooltip
    // Real on screen: fixed decimals, kSignificant4 for 4 significant digits, or kEveryDigit for
    // the shortest text that reads back to the same number (results that differ in the last bit).
    static constexpr int kSignificant4 = -1;
    static constexpr int kEveryDigit = -2;
    int decimals = kSignificant4;
};

struct ResultTable {
    QString suffix;  // output file name suffix: "" for the main table, "-seeds", "-sweep", ...
    QString title;   // tab title on screen
    std::size_t rows = 0;
    std::vector<ResultColumn> columns;

    QStringList columnNames() const;
};

// The cell as CSV text: numbers at full precision (shortest text that reads back to the same
// double), empty for no value.
QString csvCell(const ResultColumn& column, std::size_t row);
// The cell as screen text: numbers rounded by the column's `decimals`.
QString displayCell(const ResultColumn& column, std::size_t row);

// One row's cells as CSV fields, in column order.
QStringList csvRow(const ResultTable& table, std::size_t row);

// The table as CSV with the provenance as `#` lines.
QString resultTableCsv(const Provenance& provenance, const ResultTable& table);

// Rows for columnOf: one shared, immutable copy that every column's cells read.
template <class Row>
std::shared_ptr<const std::vector<Row>> sharedRows(const std::vector<Row>& rows)
{
    return std::make_shared<const std::vector<Row>>(rows);
}

// A std::string cell (the engine's names) as a table's text.
inline QString textCell(const std::string& s) { return QString::fromStdString(s); }

// A table column over a vector captured by value (shared, so copies of the table are cheap).
template <class Row, class Get>
ResultColumn columnOf(std::shared_ptr<const std::vector<Row>> rows, QString name, QString title,
                      ResultColumn::Kind kind, Get get, QString toolTip = {}, int decimals = -1)
{
    return {std::move(name),
            std::move(title),
            kind,
            [rows = std::move(rows), get](std::size_t i) { return QVariant(get((*rows)[i])); },
            std::move(toolTip),
            decimals};
}

}  // namespace logitlab::app
