#include "junk_risk_table_model.h"

#include "number_format.h"

#include <cmath>

namespace logitlab::ui {

JunkRiskTableModel::JunkRiskTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void JunkRiskTableModel::setRows(std::vector<engine::JunkRiskRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int JunkRiskTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int JunkRiskTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant JunkRiskTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const engine::JunkRiskRow& r = m_rows[static_cast<std::size_t>(index.row())];
    double value = 0.0;
    switch (index.column()) {
    case SettingColumn:
        if (role == Qt::DisplayRole || role == SortRole)
            return QString::fromStdString(r.setting);
        if (role == Qt::ToolTipRole)
            return QString::fromStdString(r.chain);
        return {};
    case LengthColumn:
        value = static_cast<double>(r.length);
        break;
    case QBeforeColumn:
        value = r.qBefore;
        break;
    case QAfterColumn:
        value = r.qAfter;
        break;
    case AnalyticColumn:
        value = r.analytic;
        break;
    case ExpectedColumn:
        value = r.expectedCount;
        break;
    case MonteCarloColumn:
        value = r.monteCarlo;
        break;
    case LowColumn:
        value = r.replies ? r.low : std::nan("");
        break;
    case HighColumn:
        value = r.replies ? r.high : std::nan("");
        break;
    case MeanCountColumn:
        value = r.meanCount;
        break;
    case RepliesColumn:
        value = static_cast<double>(r.replies);
        break;
    default:
        return {};
    }
    if (role == SortRole)
        return std::isnan(value) ? -1.0 : value;
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::DisplayRole) {
        if (std::isnan(value))
            return QString();
        if (index.column() == LengthColumn || index.column() == RepliesColumn)
            return QString::number(static_cast<qint64>(value));
        return QString::number(value, 'g', 6);
    }
    if (role == Qt::ToolTipRole && !std::isnan(value))
        return QString::fromStdString(engine::formatDouble(value)); // every digit, as in the CSV
    return {};
}

QVariant JunkRiskTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case SettingColumn:
        return tr("setting");
    case LengthColumn:
        return tr("N");
    case QBeforeColumn:
        return tr("q before");
    case QAfterColumn:
        return tr("q after");
    case AnalyticColumn:
        return tr("P(junk) analytic");
    case ExpectedColumn:
        return tr("N·q");
    case MonteCarloColumn:
        return tr("P(junk) Monte Carlo");
    case LowColumn:
        return tr("95% low");
    case HighColumn:
        return tr("95% high");
    case MeanCountColumn:
        return tr("junk per reply");
    case RepliesColumn:
        return tr("replies");
    default:
        return {};
    }
}

} // namespace logitlab::ui
