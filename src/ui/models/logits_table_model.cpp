#include "ui/models/logits_table_model.h"

#include "app/kinds/explorer_run.h"
#include "charts/token_display.h"
#include "engine/core/input_limits.h"
#include "engine/core/number_format.h"
#include "engine/io/logits_parser.h"
#include "ui/models/function_command.h"

#include <QUndoStack>

#include <algorithm>
#include <numeric>

namespace logitlab::ui {

namespace {

QString probabilityText(double p)
{
    if (p == 0.0 || p >= 1e-4)
        return QString::number(p, 'f', 4);
    return QString::number(p, 'e', 2);
}

}  // namespace

LogitsTableModel::LogitsTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void LogitsTableModel::setDistribution(engine::Distribution distribution)
{
    setTable(std::make_shared<const engine::PreparedDistribution>(engine::prepareDistribution(std::move(distribution))),
             m_snapshot.chain());
}

void LogitsTableModel::setTable(std::shared_ptr<const engine::PreparedDistribution> table,
                                const engine::ExplorerChain& chain, std::optional<engine::SamplerAnalysis> analysis)
{
    beginResetModel();
    m_snapshot.reset(std::move(table), chain, std::move(analysis));
    endResetModel();
    emit logitsChanged();
    emit resultsChanged();
}

void LogitsTableModel::setSettings(const engine::SamplerSettings& settings)
{
    engine::ExplorerChain chain = m_snapshot.chain();
    chain.lesson = settings;
    setChain(chain);
}

void LogitsTableModel::setChain(const engine::ExplorerChain& chain)
{
    if (!m_snapshot.setChain(chain))
        return;
    emitComputedColumnsChanged();
    emit resultsChanged();
}

void LogitsTableModel::emitComputedColumnsChanged()
{
    if (rowCount() > 0)
        emit dataChanged(index(0, ProbabilityColumn), index(rowCount() - 1, RankColumn));
}

int LogitsTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_snapshot.size());
}

int LogitsTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant LogitsTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const auto row = static_cast<std::size_t>(index.row());
    const int survivor = m_snapshot.survivorPosition(index.row());
    const engine::PreparedDistribution& table = *m_snapshot.table();
    const bool display = role == Qt::DisplayRole;
    const bool edit = role == Qt::EditRole;

    if (role == Qt::TextAlignmentRole && index.column() != TokenColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == SurvivorColumn && survivor < 0)
        return tr("Removed by the filters: %1").arg(cutDescription());
    if (role == Qt::ToolTipRole && index.column() == TokenColumn &&
        table.distribution.tokens[row].size() > static_cast<std::size_t>(kShownTokenChars))
        return QString::fromStdString(table.distribution.tokens[row]);  // the whole of a cut name
    if (!(display || edit))
        return {};

    const double p = m_snapshot.probabilities()[row];
    switch (index.column()) {
    case TokenColumn:  // shown cut, edited whole
        return display ? shownTokenName(table.distribution.tokens[row])
                       : QString::fromStdString(table.distribution.tokens[row]);
    case LogitColumn: {
        const double logit = table.distribution.logits[static_cast<Eigen::Index>(row)];
        return display ? QVariant(QString::fromStdString(engine::formatDouble(logit))) : QVariant(logit);
    }
    case ProbabilityColumn:
        return display ? QVariant(probabilityText(p)) : QVariant(p);
    case SurvivorColumn:
        return display ? QVariant(survivor >= 0 ? tr("yes") : tr("cut")) : QVariant(survivor >= 0);
    case RenormalisedColumn: {
        const double q = survivor >= 0 ? m_snapshot.survivors()[static_cast<std::size_t>(survivor)].p : 0.0;
        return display ? QVariant(probabilityText(q)) : QVariant(q);
    }
    case RankColumn:
        return table.rank[row];
    }
    return {};
}

QVariant LogitsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Vertical)
        return role == Qt::DisplayRole ? QVariant(section) : QVariant();  // the token id
    if (section < 0 || section >= ColumnCount)
        return {};
    // The columns as the result table declares them for the CSV (app::explorerTokenColumns).
    static const char* const kNames[ColumnCount] = {"token", "logit", "p", "survivor", "p_renormalised", "rank"};
    const app::ResultColumn& column = app::explorerTokenColumn(QLatin1String(kNames[section]));
    if (role == Qt::DisplayRole)
        return column.title;
    if (role == Qt::ToolTipRole) {
        if (section == TokenColumn)
            return column.toolTip + QLatin1Char(' ') + tr("Double-click to rename it.");
        if (section == LogitColumn)
            return column.toolTip + QLatin1Char(' ') + tr("Double-click to edit it.");
        return column.toolTip;
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
    const int row = index.row();
    QVariant accepted;
    QVariant previous;
    if (index.column() == TokenColumn) {
        const QString token = value.toString().trimmed();
        if (token.isEmpty()) {
            emit editRejected(tr("Row %1: a token needs a name.").arg(row));
            return false;
        }
        if (auto problem = engine::tokenNameProblem(token.toStdString())) {
            emit editRejected(tr("Row %1: the name %2.").arg(row).arg(QString::fromStdString(*problem)));
            return false;
        }
        accepted = token;
        previous = tokenName(row);
    } else if (index.column() == LogitColumn) {
        const QString text = value.toString().trimmed();
        const auto parsed = engine::parseDouble(text.toStdString());
        if (!parsed) {
            emit editRejected(tr("Row %1: '%2' is not a number.").arg(row).arg(text));
            return false;
        }
        Eigen::ArrayXd trial = m_snapshot.distribution().logits;
        trial[row] = *parsed;
        if (auto problem = engine::validateLogits(trial)) {
            emit editRejected(tr("Row %1: %2.").arg(row).arg(QString::fromStdString(*problem)));
            return false;
        }
        accepted = *parsed;
        previous = m_snapshot.distribution().logits[row];
    } else {
        return false;
    }
    if (accepted == previous)
        return true;
    if (!m_undoStack) {
        applyCell(row, index.column(), accepted);
        return true;
    }
    const int column = index.column();
    const QString what =
        column == TokenColumn ? tr("Rename token %1").arg(row) : tr("Edit logit of '%1'").arg(shownName(row));
    m_undoStack->push(new FunctionCommand(
        what, [this, row, column, accepted] { applyCell(row, column, accepted); },
        [this, row, column, previous] { applyCell(row, column, previous); }));
    return true;
}

void LogitsTableModel::applyCell(int row, int column, const QVariant& value)
{
    if (row < 0 || row >= rowCount())
        return;
    // The table may be shared with undo steps of earlier loads: edit a copy.
    if (column == TokenColumn) {
        m_snapshot.setTable(std::make_shared<const engine::PreparedDistribution>(
                                engine::withTokenName(*m_snapshot.table(), row, value.toString().toStdString())),
                            false);
        emit dataChanged(index(row, TokenColumn), index(row, TokenColumn));
        emit logitsChanged();
        emit resultsChanged();
        return;
    }
    m_snapshot.setTable(std::make_shared<const engine::PreparedDistribution>(
        engine::withLogit(*m_snapshot.table(), row, value.toDouble())));
    emit dataChanged(index(row, LogitColumn), index(row, LogitColumn));
    emitComputedColumnsChanged();
    emit logitsChanged();
    emit resultsChanged();
}

}  // namespace logitlab::ui
