// Any app::ResultTable as a Qt table model: what the Junk risk and Seed sweep pages show. The
// cells and column names are the ones the CSV writes (the table is declared once, in app/);
// on screen numbers are rounded by the column's precision, the tooltip and EditRole hold every
// digit, and SortRole sorts numbers as numbers (empty cells last). Takes whole tables (a model
// reset); a subclass may insert and remove rows (LoopStepsModel).
#pragma once

#include "app/kinds/result_table.h"

#include <QAbstractTableModel>

namespace logitlab::ui {

class ResultTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role { SortRole = Qt::UserRole + 1 };

    explicit ResultTableModel(QObject* parent = nullptr);

    void setTable(app::ResultTable table);
    const app::ResultTable& table() const { return m_table; }
    // The column named `name` in the CSV ("p_any_mc"), or -1.
    int column(const QString& name) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    // For a table whose cells read rows that grow in place: the new count, between a subclass's
    // beginInsertRows / beginRemoveRows and their end.
    void setRowCount(std::size_t rows) { m_table.rows = rows; }

private:
    app::ResultTable m_table;
};

}  // namespace logitlab::ui
