#include "logits_table_model.h"

#include "candidates.h"
#include "logits_parser.h"
#include "softmax.h"

#include <algorithm>
#include <numeric>

namespace logitlab::ui {

LogitsTableModel::LogitsTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void LogitsTableModel::setDistribution(engine::Distribution distribution)
{
    beginResetModel();
    m_distribution = std::move(distribution);
    if (m_distribution.tokens.empty())
        for (Eigen::Index i = 0; i < m_distribution.logits.size(); ++i)
            m_distribution.tokens.push_back(std::to_string(i));
    recompute();
    endResetModel();
    emit resultsChanged();
}

void LogitsTableModel::setSettings(const engine::SamplerSettings& settings)
{
    if (settings == m_settings)
        return;
    m_settings = settings;
    recompute();
    if (rowCount() > 0)
        emit dataChanged(index(0, ProbabilityColumn), index(rowCount() - 1, RankColumn));
    emit resultsChanged();
}

void LogitsTableModel::recompute()
{
    const auto n = static_cast<std::size_t>(m_distribution.logits.size());
    m_survivors.clear();
    m_probabilities.assign(n, 0.0);
    m_survivorIndex.assign(n, -1);
    m_rank.assign(n, 0);
    if (n == 0 || engine::validateLogits(m_distribution.logits) || engine::validateSettings(m_settings))
        return;

    if (m_settings.temperature == 0.0) {
        m_probabilities[static_cast<std::size_t>(engine::argmax(m_distribution.logits))] = 1.0;
    } else {
        const Eigen::ArrayXd p = engine::softmax(m_distribution.logits, m_settings.temperature);
        std::copy(p.data(), p.data() + p.size(), m_probabilities.begin());
    }
    m_survivors = engine::candidates(m_distribution.logits, m_settings);
    for (std::size_t i = 0; i < m_survivors.size(); ++i)
        m_survivorIndex[static_cast<std::size_t>(m_survivors[i].id)] = static_cast<int>(i);

    // Rank by logit (the order softmax preserves at any T > 0), lower id first on ties.
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    const auto& l = m_distribution.logits;
    std::stable_sort(order.begin(), order.end(), [&l](int a, int b) { return l[a] > l[b]; });
    for (std::size_t r = 0; r < n; ++r)
        m_rank[static_cast<std::size_t>(order[r])] = static_cast<int>(r) + 1;
}

int LogitsTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_distribution.logits.size());
}

int LogitsTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LogitsTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const auto row = static_cast<std::size_t>(index.row());
    const int survivor = m_survivorIndex.empty() ? -1 : m_survivorIndex[row];
    const bool display = role == Qt::DisplayRole;
    const bool edit = role == Qt::EditRole;

    if (role == Qt::TextAlignmentRole && index.column() != TokenColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (!(display || edit))
        return {};

    switch (index.column()) {
    case TokenColumn:
        return QString::fromStdString(m_distribution.tokens[row]);
    case LogitColumn:
        return m_distribution.logits[static_cast<Eigen::Index>(row)];
    case ProbabilityColumn:
        return display ? QVariant(QString::number(m_probabilities[row], 'f', 4)) : QVariant(m_probabilities[row]);
    case SurvivorColumn:
        return display ? QVariant(survivor >= 0 ? tr("yes") : tr("cut")) : QVariant(survivor >= 0);
    case RenormalisedColumn: {
        const double p = survivor >= 0 ? m_survivors[static_cast<std::size_t>(survivor)].p : 0.0;
        return display ? QVariant(QString::number(p, 'f', 4)) : QVariant(p);
    }
    case RankColumn:
        return m_rank[row];
    }
    return {};
}

QVariant LogitsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Vertical)
        return section;  // the token id
    switch (section) {
    case TokenColumn: return tr("token");
    case LogitColumn: return tr("logit");
    case ProbabilityColumn: return tr("p at T");
    case SurvivorColumn: return tr("survivor");
    case RenormalisedColumn: return tr("renormalised p");
    case RankColumn: return tr("rank");
    }
    return {};
}

Qt::ItemFlags LogitsTableModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && (index.column() == TokenColumn || index.column() == LogitColumn))
        f |= Qt::ItemIsEditable;
    return f;
}

bool LogitsTableModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid))
        return false;
    const auto row = static_cast<std::size_t>(index.row());
    if (index.column() == TokenColumn) {
        const QString token = value.toString().trimmed();
        if (token.isEmpty()) {
            emit editRejected(tr("Row %1: a token needs a name.").arg(row));
            return false;
        }
        m_distribution.tokens[row] = token.toStdString();
        emit dataChanged(index, index);
        emit resultsChanged();
        return true;
    }
    if (index.column() != LogitColumn)
        return false;

    const QString text = value.toString();
    const auto parsed = engine::parseDouble(text.toStdString());
    if (!parsed) {
        emit editRejected(tr("Row %1: '%2' is not a number.").arg(row).arg(text));
        return false;
    }
    Eigen::ArrayXd trial = m_distribution.logits;
    trial[static_cast<Eigen::Index>(row)] = *parsed;
    if (auto problem = engine::validateLogits(trial)) {
        emit editRejected(tr("Row %1: %2.").arg(row).arg(QString::fromStdString(*problem)));
        return false;
    }
    m_distribution.logits = std::move(trial);
    recompute();
    emit dataChanged(this->index(index.row(), LogitColumn), this->index(index.row(), LogitColumn));
    emit dataChanged(this->index(0, ProbabilityColumn), this->index(rowCount() - 1, RankColumn));
    emit resultsChanged();
    return true;
}

}  // namespace logitlab::ui
