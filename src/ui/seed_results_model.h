// The seed sweep's per-seed table: seed, chi-square and G-test with p-values, the most drawn
// token and the sequence hash. Takes whole results (a model reset); numbers sort as numbers
// through SortRole.
#pragma once

#include "seed_sweep.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <vector>

namespace logitlab::ui {

class SeedResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { SeedColumn, ChiSquareColumn, ChiSquarePColumn, GColumn, GPColumn, MostDrawnColumn, HashColumn,
                  ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1 };

    explicit SeedResultsModel(QObject* parent = nullptr);

    void setResults(std::vector<engine::SeedResult> results, QStringList tokenNames);
    const std::vector<engine::SeedResult>& results() const { return m_results; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<engine::SeedResult> m_results;
    QStringList m_tokenNames;
};

}  // namespace logitlab::ui
