// The sort behind the Explorer's table. QSortFilterProxyModel sorts by comparing QVariants,
// which takes about a second on the UI thread at V = 262,144; this proxy reads the row order
// off what the model already holds instead: the order by logit (logit, rank and, as every
// Explorer chain keeps the probability order, the computed columns), the order by name, and
// the survivors. A sort costs O(V) and is redone whenever the sorted column changes, so the
// table stays sorted through new loads, edits and sampler changes.
//
// Rows with equal values come in the order by logit (lower id first on equal logits); the
// ascending order is the descending one reversed. The source may change only by resets and
// dataChanged, as LogitsTableModel does.
#pragma once

#include <QAbstractProxyModel>

#include <cstdint>
#include <vector>

namespace logitlab::ui {

class LogitsTableModel;

class LogitsSortProxy : public QAbstractProxyModel {
    Q_OBJECT
public:
    explicit LogitsSortProxy(LogitsTableModel* source, QObject* parent = nullptr);

    // Column -1: the model's order (by id).
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    int sortColumn() const { return m_column; }
    Qt::SortOrder sortOrder() const { return m_order; }

    QModelIndex mapToSource(const QModelIndex& proxyIndex) const override;
    QModelIndex mapFromSource(const QModelIndex& sourceIndex) const override;
    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;

private:
    std::vector<std::int32_t> sortedIds() const;
    // The rows in `ids` order (empty: the source's order).
    void setMapping(std::vector<std::int32_t> ids);
    void updateMapping();
    // Rows in `ids` order, persistent indexes (selection, current row) following their tokens.
    void resort(std::vector<std::int32_t> ids);
    void sourceDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight, const QList<int>& roles);

    LogitsTableModel* m_source;
    int m_column = -1;
    Qt::SortOrder m_order = Qt::AscendingOrder;
    std::vector<std::int32_t> m_toSource;    // source row by proxy row; empty when unsorted
    std::vector<std::int32_t> m_fromSource;  // proxy row by source row; empty when unsorted
};

}  // namespace logitlab::ui
