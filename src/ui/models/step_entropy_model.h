// The steps of a model's dump as a table: step, entropy (nats, at T = 1) and perplexity, read
// from one vector of entropies without an item per cell, so a dump of millions of steps lists in
// the memory of its entropies (8 bytes a step) plus a sort order (4 bytes a step). Sorting
// permutes that order in the model itself (no proxy mapping of its own).
#pragma once

#include <QAbstractTableModel>
#include <QList>

#include <cstdint>
#include <vector>

namespace logitlab::ui {

class StepEntropyModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Step, Entropy, Perplexity, ColumnCount };

    explicit StepEntropyModel(QObject* parent = nullptr);

    // A new list of steps (one batch row's); the rows keep the column and order sorted last.
    void setEntropy(QList<double> entropy);
    // The step shown in `row`.
    int stepAt(int row) const;
    // The row that shows `step`, or -1.
    int rowOf(int step) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    void applySort();

    QList<double> m_entropy;
    std::vector<std::int32_t> m_order;  // row -> step
    int m_sortColumn = Step;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
};

}  // namespace logitlab::ui
