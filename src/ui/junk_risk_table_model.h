// The junk-risk results as a table: one row per (setting, N), the same columns as the CSV.
// Takes whole results (a model reset), never row-by-row inserts; numbers sort as numbers
// through SortRole.
#pragma once

#include "junk_risk.h"

#include <QAbstractTableModel>

#include <vector>

namespace logitlab::ui {

class JunkRiskTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        SettingColumn,
        LengthColumn,
        QBeforeColumn,
        QAfterColumn,
        AnalyticColumn,
        ExpectedColumn,
        MonteCarloColumn,
        LowColumn,
        HighColumn,
        MeanCountColumn,
        RepliesColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1 };

    explicit JunkRiskTableModel(QObject* parent = nullptr);

    void setRows(std::vector<engine::JunkRiskRow> rows);
    const std::vector<engine::JunkRiskRow>& rows() const { return m_rows; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<engine::JunkRiskRow> m_rows;
};

} // namespace logitlab::ui
