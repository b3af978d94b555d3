// The seed sweep's per-token table: claimed probability, pooled and expected counts, the spread
// of the per-seed counts (min, quartiles, max) and how often the token was the most drawn.
// Takes a whole summary (a model reset); numbers sort as numbers through SortRole.
#pragma once

#include "seed_sweep.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <vector>

namespace logitlab::ui {

class TokenSpreadModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TokenColumn, ProbabilityColumn, PooledColumn, ExpectedColumn, MinColumn, Q1Column, MedianColumn,
                  Q3Column, MaxColumn, MostDrawnColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1 };

    explicit TokenSpreadModel(QObject* parent = nullptr);

    void setTokens(std::vector<engine::TokenSpread> tokens, QStringList names);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<engine::TokenSpread> m_tokens;
    QStringList m_names;
};

}  // namespace logitlab::ui
