#include "token_spread_model.h"

#include "token_display.h"

namespace logitlab::ui {

TokenSpreadModel::TokenSpreadModel(QObject* parent) : QAbstractTableModel(parent) {}

void TokenSpreadModel::setTokens(std::vector<engine::TokenSpread> tokens, QStringList names)
{
    beginResetModel();
    m_tokens = std::move(tokens);
    m_names = std::move(names);
    endResetModel();
}

int TokenSpreadModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_tokens.size());
}

int TokenSpreadModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TokenSpreadModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (role == Qt::TextAlignmentRole)
        return index.column() == TokenColumn ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::EditRole && role != SortRole)
        return {};
    const engine::TokenSpread& t = m_tokens[static_cast<std::size_t>(index.row())];
    const bool display = role == Qt::DisplayRole;
    const auto number = [display](double v, int decimals) {
        return display ? QVariant(QString::number(v, 'f', decimals)) : QVariant(v);
    };
    switch (index.column()) {
    case TokenColumn: return display ? shownTokenName(m_names.value(index.row())) : m_names.value(index.row());
    case ProbabilityColumn: return number(t.expected, 4);
    case PooledColumn: return QVariant::fromValue<qulonglong>(t.pooled);
    case ExpectedColumn: return number(t.expectedPooled, 1);
    case MinColumn: return number(t.min, 0);
    case Q1Column: return number(t.q1, 1);
    case MedianColumn: return number(t.median, 1);
    case Q3Column: return number(t.q3, 1);
    case MaxColumn: return number(t.max, 0);
    case MostDrawnColumn: return QVariant::fromValue<qulonglong>(t.timesMostDrawn);
    }
    return {};
}

QVariant TokenSpreadModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return {};
    switch (section) {
    case TokenColumn: return tr("token");
    case ProbabilityColumn: return tr("p");
    case PooledColumn: return tr("drawn (all seeds)");
    case ExpectedColumn: return tr("expected");
    case MinColumn: return tr("min");
    case Q1Column: return tr("q1");
    case MedianColumn: return tr("median");
    case Q3Column: return tr("q3");
    case MaxColumn: return tr("max");
    case MostDrawnColumn: return tr("seeds where most drawn");
    }
    return {};
}

}  // namespace logitlab::ui
