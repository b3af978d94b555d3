#include "ui/models/step_entropy_model.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace logitlab::ui {

StepEntropyModel::StepEntropyModel(QObject* parent) : QAbstractTableModel(parent) {}

void StepEntropyModel::setEntropy(QList<double> entropy)
{
    beginResetModel();
    m_entropy = std::move(entropy);
    m_order.resize(static_cast<std::size_t>(m_entropy.size()));
    std::iota(m_order.begin(), m_order.end(), 0);
    applySort();
    endResetModel();
}

int StepEntropyModel::stepAt(int row) const
{
    return row >= 0 && static_cast<std::size_t>(row) < m_order.size() ? m_order[static_cast<std::size_t>(row)] : -1;
}

int StepEntropyModel::rowOf(int step) const
{
    const auto found = std::find(m_order.begin(), m_order.end(), step);
    return found == m_order.end() ? -1 : static_cast<int>(found - m_order.begin());
}

int StepEntropyModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_order.size());
}

int StepEntropyModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant StepEntropyModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return {};
    const int step = m_order[static_cast<std::size_t>(index.row())];
    const double entropy = m_entropy[step];
    switch (index.column()) {
    case Step:
        return step;
    case Entropy:
        return role == Qt::ToolTipRole ? QString::number(entropy, 'g', 17) : QString::number(entropy, 'f', 4);
    case Perplexity:
        return role == Qt::ToolTipRole ? QString::number(std::exp(entropy), 'g', 17)
                                       : QString::number(std::exp(entropy), 'f', 2);
    default:
        return {};
    }
}

QVariant StepEntropyModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Step:
        return tr("Step");
    case Entropy:
        return tr("Entropy (nats)");
    case Perplexity:
        return tr("Perplexity");
    default:
        return {};
    }
}

void StepEntropyModel::sort(int column, Qt::SortOrder order)
{
    m_sortColumn = column;
    m_sortOrder = order;
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    // The selection and current row follow their steps to the steps' new rows.
    const QModelIndexList before = persistentIndexList();
    std::vector<int> steps;
    steps.reserve(static_cast<std::size_t>(before.size()));
    for (const QModelIndex& index : before)
        steps.push_back(stepAt(index.row()));
    applySort();
    std::vector<int> rowOfStep(m_order.size());
    for (std::size_t row = 0; row < m_order.size(); ++row)
        rowOfStep[static_cast<std::size_t>(m_order[row])] = static_cast<int>(row);
    QModelIndexList after;
    for (qsizetype i = 0; i < before.size(); ++i)
        after << index(rowOfStep[static_cast<std::size_t>(steps[static_cast<std::size_t>(i)])], before[i].column());
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void StepEntropyModel::applySort()
{
    std::iota(m_order.begin(), m_order.end(), 0);
    const bool ascending = m_sortOrder == Qt::AscendingOrder;
    if (m_sortColumn == Step) {
        if (!ascending)
            std::reverse(m_order.begin(), m_order.end());
        return;
    }
    // Entropy and perplexity sort alike (exp is increasing); ties keep step order.
    std::stable_sort(m_order.begin(), m_order.end(), [this, ascending](std::int32_t a, std::int32_t b) {
        return ascending ? m_entropy[a] < m_entropy[b] : m_entropy[a] > m_entropy[b];
    });
}

}  // namespace logitlab::ui
