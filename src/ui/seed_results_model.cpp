#include "seed_results_model.h"

#include "token_display.h"

namespace logitlab::ui {

SeedResultsModel::SeedResultsModel(QObject* parent) : QAbstractTableModel(parent) {}

void SeedResultsModel::setResults(std::vector<engine::SeedResult> results, QStringList tokenNames)
{
    beginResetModel();
    m_results = std::move(results);
    m_tokenNames = std::move(tokenNames);
    endResetModel();
}

int SeedResultsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_results.size());
}

int SeedResultsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SeedResultsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (role == Qt::TextAlignmentRole)
        return index.column() == MostDrawnColumn ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::EditRole && role != SortRole)
        return {};
    const engine::SeedResult& r = m_results[static_cast<std::size_t>(index.row())];
    const bool display = role == Qt::DisplayRole;
    switch (index.column()) {
    case SeedColumn: return QVariant::fromValue<qulonglong>(r.seed);
    case ChiSquareColumn: return display ? QVariant(QString::number(r.chiSquare.statistic, 'f', 3)) : QVariant(r.chiSquare.statistic);
    case ChiSquarePColumn: return display ? QVariant(QString::number(r.chiSquare.pValue, 'f', 4)) : QVariant(r.chiSquare.pValue);
    case GColumn: return display ? QVariant(QString::number(r.gTest.statistic, 'f', 3)) : QVariant(r.gTest.statistic);
    case GPColumn: return display ? QVariant(QString::number(r.gTest.pValue, 'f', 4)) : QVariant(r.gTest.pValue);
    case MostDrawnColumn: {  // shown cut, exported whole
        const QString name = m_tokenNames.value(static_cast<qsizetype>(r.mostDrawn));
        return display ? shownTokenName(name) : name;
    }
    case HashColumn:
        return role == SortRole ? QVariant::fromValue<qulonglong>(r.hash)
                                : QVariant(QStringLiteral("%1").arg(r.hash, 16, 16, QLatin1Char('0')));
    }
    return {};
}

QVariant SeedResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return {};
    switch (section) {
    case SeedColumn: return tr("seed");
    case ChiSquareColumn: return tr("chi-square");
    case ChiSquarePColumn: return tr("chi-square p");
    case GColumn: return tr("G");
    case GPColumn: return tr("G p");
    case MostDrawnColumn: return tr("most drawn");
    case HashColumn: return tr("sequence hash");
    }
    return {};
}

}  // namespace logitlab::ui
