#include "charts/logits_table_model.h"

#include "charts/function_command.h"
#include "charts/token_display.h"
#include "engine/core/input_limits.h"
#include "engine/core/number_format.h"
#include "engine/io/logits_parser.h"

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

LogitsTableModel::LogitsTableModel(QObject* parent)
    : QAbstractTableModel(parent), m_table(std::make_shared<const engine::PreparedDistribution>())
{
}

void LogitsTableModel::setDistribution(engine::Distribution distribution)
{
    setTable(std::make_shared<const engine::PreparedDistribution>(engine::prepareDistribution(std::move(distribution))),
             m_chain);
}

void LogitsTableModel::setTable(std::shared_ptr<const engine::PreparedDistribution> table,
                                const engine::ExplorerChain& chain, std::optional<engine::SamplerAnalysis> analysis)
{
    beginResetModel();
    m_table = std::move(table);
    m_chain = chain;
    recompute(std::move(analysis));
    endResetModel();
    emit logitsChanged();
    emit resultsChanged();
}

void LogitsTableModel::setSettings(const engine::SamplerSettings& settings)
{
    engine::ExplorerChain chain = m_chain;
    chain.lesson = settings;
    setChain(chain);
}

void LogitsTableModel::setChain(const engine::ExplorerChain& chain)
{
    if (chain == m_chain)
        return;
    m_chain = chain;
    recompute();
    emitComputedColumnsChanged();
    emit resultsChanged();
}

engine::SamplerAnalysis LogitsTableModel::analyse(const engine::PreparedDistribution& table,
                                                  const engine::ExplorerChain& chain)
{
    const auto& logits = table.distribution.logits;
    if (logits.size() == 0 || table.problem ||
        engine::validateExplorerChain(chain, static_cast<std::size_t>(logits.size()))) {
        engine::SamplerAnalysis empty;
        empty.probabilities.assign(static_cast<std::size_t>(logits.size()), 0.0);
        return empty;
    }
    return engine::analyseExplorerChain(logits, chain, table.byLogit);
}

void LogitsTableModel::recompute(std::optional<engine::SamplerAnalysis> analysis)
{
    const auto n = static_cast<std::size_t>(m_table->distribution.logits.size());
    // Clear only the old survivors' marks: at V = 262,144 a full reset is a megabyte per step.
    if (m_survivorIndex.size() != n)
        m_survivorIndex.assign(n, -1);
    else
        for (const auto& c : m_analysis.survivors)
            m_survivorIndex[static_cast<std::size_t>(c.id)] = -1;
    m_analysis = analysis ? std::move(*analysis) : analyse(*m_table, m_chain);
    const auto& survivors = m_analysis.survivors;
    for (std::size_t i = 0; i < survivors.size(); ++i)
        m_survivorIndex[static_cast<std::size_t>(survivors[i].id)] = static_cast<int>(i);
}

void LogitsTableModel::emitComputedColumnsChanged()
{
    if (rowCount() > 0)
        emit dataChanged(index(0, ProbabilityColumn), index(rowCount() - 1, RankColumn));
}

QString LogitsTableModel::tokenName(std::int32_t id) const
{
    return QString::fromStdString(m_table->distribution.tokens[static_cast<std::size_t>(id)]);
}

QString LogitsTableModel::shownName(std::int32_t id) const
{
    return shownTokenName(m_table->distribution.tokens[static_cast<std::size_t>(id)]);
}

QString LogitsTableModel::cutDescription() const
{
    const auto& a = m_analysis;
    if (a.survivors.empty())
        return {};
    const QString last = shownName(a.survivors.back().id);
    switch (a.rule) {
    case engine::CutRule::Greedy:
        return tr("greedy: argmax '%1'").arg(last);
    case engine::CutRule::TopP: {
        // Enough digits that the shown total is visibly above p ("0.900 > 0.9" would read as a tie).
        QString total = QString::number(a.massKept, 'f', 3);
        for (int digits = 4; digits <= 12 && total.toDouble() <= a.cutThreshold; ++digits)
            total = QString::number(a.massKept, 'f', digits);
        return tr("cumulative %1 > %2 after '%3'")
            .arg(total, QString::fromStdString(engine::formatDouble(a.cutThreshold)), last);
    }
    case engine::CutRule::TopK:
        return tr("top-k = %1 keeps the %1 most likely, up to '%2'").arg(a.survivors.size()).arg(last);
    case engine::CutRule::Chain:
        // The rule is the chain itself, in its order, and the running total is the probability
        // the survivors held before renormalising.
        return tr("%1: %2\nkeeps %L3 of %L4 (p kept %5), down to '%6'")
            .arg(QString::fromStdString(engine::semanticsName(m_chain.semantics)),
                 QString::fromStdString(engine::describeExplorerChain(m_chain)))
            .arg(a.survivors.size())
            .arg(rowCount())
            .arg(QString::number(a.massKept, 'f', 3))
            .arg(last);
    case engine::CutRule::None:
        break;
    }
    return tr("no cut: all %1 tokens survive").arg(a.survivors.size());
}

int LogitsTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_table->distribution.logits.size());
}

int LogitsTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant LogitsTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const auto row = static_cast<std::size_t>(index.row());
    const int survivor = m_survivorIndex[row];
    const bool display = role == Qt::DisplayRole;
    const bool edit = role == Qt::EditRole;

    if (role == Qt::TextAlignmentRole && index.column() != TokenColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == SurvivorColumn && survivor < 0)
        return tr("Removed by the filters: %1").arg(cutDescription());
    if (role == Qt::ToolTipRole && index.column() == TokenColumn &&
        m_table->distribution.tokens[row].size() > static_cast<std::size_t>(kShownTokenChars))
        return QString::fromStdString(m_table->distribution.tokens[row]);  // the whole of a cut name
    if (!(display || edit))
        return {};

    const double p = m_analysis.probabilities[row];
    switch (index.column()) {
    case TokenColumn:  // shown cut, edited whole
        return display ? shownTokenName(m_table->distribution.tokens[row])
                       : QString::fromStdString(m_table->distribution.tokens[row]);
    case LogitColumn: {
        const double logit = m_table->distribution.logits[static_cast<Eigen::Index>(row)];
        return display ? QVariant(QString::fromStdString(engine::formatDouble(logit))) : QVariant(logit);
    }
    case ProbabilityColumn:
        return display ? QVariant(probabilityText(p)) : QVariant(p);
    case SurvivorColumn:
        return display ? QVariant(survivor >= 0 ? tr("yes") : tr("cut")) : QVariant(survivor >= 0);
    case RenormalisedColumn: {
        const double q = survivor >= 0 ? m_analysis.survivors[static_cast<std::size_t>(survivor)].p : 0.0;
        return display ? QVariant(probabilityText(q)) : QVariant(q);
    }
    case RankColumn:
        return m_table->rank[row];
    }
    return {};
}

QVariant LogitsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole) {
        switch (section) {
        case TokenColumn:
            return tr("The token's text; double-click to rename it.");
        case LogitColumn:
            return tr("The model's raw score; double-click to edit it.");
        case ProbabilityColumn:
            return tr("Softmax of the logits divided by the temperature.");
        case SurvivorColumn:
            return tr("Whether the token survives top-k and top-p.");
        case RenormalisedColumn:
            return tr("The survivor's share after the survivors are rescaled to sum to 1.");
        case RankColumn:
            return tr("Position by probability, 1 = most likely.");
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Vertical)
        return section;  // the token id
    switch (section) {
    case TokenColumn:
        return tr("token");
    case LogitColumn:
        return tr("logit");
    case ProbabilityColumn:
        return tr("p at T");
    case SurvivorColumn:
        return tr("survivor");
    case RenormalisedColumn:
        return tr("renormalised p");
    case RankColumn:
        return tr("rank");
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
        Eigen::ArrayXd trial = m_table->distribution.logits;
        trial[row] = *parsed;
        if (auto problem = engine::validateLogits(trial)) {
            emit editRejected(tr("Row %1: %2.").arg(row).arg(QString::fromStdString(*problem)));
            return false;
        }
        accepted = *parsed;
        previous = m_table->distribution.logits[row];
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
        m_table = std::make_shared<const engine::PreparedDistribution>(
            engine::withTokenName(*m_table, row, value.toString().toStdString()));
        emit dataChanged(index(row, TokenColumn), index(row, TokenColumn));
        emit logitsChanged();
        emit resultsChanged();
        return;
    }
    m_table = std::make_shared<const engine::PreparedDistribution>(engine::withLogit(*m_table, row, value.toDouble()));
    recompute();
    emit dataChanged(index(row, LogitColumn), index(row, LogitColumn));
    emitComputedColumnsChanged();
    emit logitsChanged();
    emit resultsChanged();
}

}  // namespace logitlab::ui
