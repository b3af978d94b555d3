#include "ui/models/result_table_model.h"

#include "charts/token_display.h"

#include <cmath>
#include <limits>

namespace logitlab::ui {

ResultTableModel::ResultTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ResultTableModel::setTable(app::ResultTable table)
{
    beginResetModel();
    m_table = std::move(table);
    endResetModel();
}

int ResultTableModel::column(const QString& name) const
{
    for (std::size_t c = 0; c < m_table.columns.size(); ++c)
        if (m_table.columns[c].name == name)
            return static_cast<int>(c);
    return -1;
}

int ResultTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_table.rows);
}

int ResultTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_table.columns.size());
}

QVariant ResultTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& column = m_table.columns[static_cast<std::size_t>(index.column())];
    const auto row = static_cast<std::size_t>(index.row());
    const bool number = column.kind != app::ResultColumn::Kind::Text;
    switch (role) {
    case Qt::DisplayRole:
        // Long text (a 1,000-character token name) is cut on screen; the tooltip holds it whole.
        return number ? app::displayCell(column, row) : shownTokenName(app::displayCell(column, row));
    case Qt::EditRole:
        return column.cell(row);
    case Qt::ToolTipRole: {
        const QString full = app::csvCell(column, row);  // every digit, as in the CSV
        return full.isEmpty() ? QVariant() : QVariant(full);
    }
    case Qt::TextAlignmentRole:
        return number ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case SortRole: {
        const QVariant value = column.cell(row);
        if (!number)
            return value.toString();
        const double v = value.isValid() && !value.isNull() ? value.toDouble() : NAN;
        return std::isnan(v) ? -std::numeric_limits<double>::infinity() : v;
    }
    default:
        return {};
    }
}

QVariant ResultTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    const auto& column = m_table.columns[static_cast<std::size_t>(section)];
    if (role == Qt::DisplayRole)
        return column.title;
    if (role == Qt::ToolTipRole)
        return column.toolTip.isEmpty() ? column.name : QStringLiteral("%1 (CSV: %2)").arg(column.toolTip, column.name);
    return QAbstractTableModel::headerData(section, orientation, role);
}

}  // namespace logitlab::ui
