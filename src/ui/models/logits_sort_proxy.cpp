#include "ui/models/logits_sort_proxy.h"

#include "ui/models/logits_table_model.h"

#include <algorithm>

namespace logitlab::ui {

namespace {

// `seed` reordered by descending key, keeping the seed's order among equal keys (a stable
// sort). When the keys already descend along the seed, as the probabilities do along the order
// by logit, this is one pass; any other chain still gets a correct, if O(V log V), order.
template <class Key>
std::vector<std::int32_t> descendingAlong(const std::vector<std::int32_t>& seed, Key key)
{
    std::vector<std::int32_t> ids = seed;
    // One look-up per token (std::is_sorted's comparison looks each one up twice): the keys are
    // scattered over the vocabulary, and this check runs on every slider step.
    bool descending = true;
    if (!ids.empty()) {
        auto previous = key(ids.front());
        for (std::size_t i = 1; i < ids.size() && descending; ++i) {
            const auto current = key(ids[i]);
            descending = !(current > previous);
            previous = current;
        }
    }
    if (!descending)
        std::stable_sort(ids.begin(), ids.end(), [&key](std::int32_t a, std::int32_t b) { return key(a) > key(b); });
    return ids;
}

}  // namespace

LogitsSortProxy::LogitsSortProxy(LogitsTableModel* source, QObject* parent)
    : QAbstractProxyModel(parent), m_source(source)
{
    QAbstractProxyModel::setSourceModel(source);
    connect(source, &QAbstractItemModel::modelAboutToBeReset, this, [this] { beginResetModel(); });
    connect(source, &QAbstractItemModel::modelReset, this, [this] {
        updateMapping();
        endResetModel();
    });
    connect(source, &QAbstractItemModel::dataChanged, this, &LogitsSortProxy::sourceDataChanged);
    connect(source, &QAbstractItemModel::headerDataChanged, this,
            [this](Qt::Orientation orientation, int first, int last) {
                if (orientation == Qt::Vertical && m_column >= 0) {
                    first = 0;
                    last = rowCount() - 1;
                }
                emit headerDataChanged(orientation, first, last);
            });
}

void LogitsSortProxy::sort(int column, Qt::SortOrder order)
{
    m_column = column >= 0 && column < columnCount() ? column : -1;
    m_order = order;
    resort(m_column < 0 ? std::vector<std::int32_t>{} : sortedIds());
}

std::vector<std::int32_t> LogitsSortProxy::sortedIds() const
{
    const auto& byLogit = m_source->idsByLogit();
    std::vector<std::int32_t> ids;
    Qt::SortOrder natural = Qt::DescendingOrder;  // the order `ids` comes in
    switch (m_column) {
    case LogitsTableModel::TokenColumn:
        ids = m_source->idsByToken();
        natural = Qt::AscendingOrder;
        break;
    case LogitsTableModel::LogitColumn:
        ids = byLogit;
        break;
    case LogitsTableModel::RankColumn:
        ids = byLogit;
        natural = Qt::AscendingOrder;
        break;
    case LogitsTableModel::ProbabilityColumn: {
        const auto& p = m_source->probabilities();
        ids = descendingAlong(byLogit, [&p](std::int32_t id) { return p[static_cast<std::size_t>(id)]; });
        break;
    }
    case LogitsTableModel::SurvivorColumn:
        ids = descendingAlong(byLogit, [this](std::int32_t id) { return m_source->survivorPosition(id) >= 0; });
        break;
    case LogitsTableModel::RenormalisedColumn: {
        const auto& survivors = m_source->survivors();
        ids = descendingAlong(byLogit, [this, &survivors](std::int32_t id) {
            const int at = m_source->survivorPosition(id);
            return at >= 0 ? survivors[static_cast<std::size_t>(at)].p : 0.0;
        });
        break;
    }
    default:
        break;
    }
    if (m_order != natural)
        std::reverse(ids.begin(), ids.end());
    return ids;
}

void LogitsSortProxy::updateMapping() { setMapping(m_column < 0 ? std::vector<std::int32_t>{} : sortedIds()); }

void LogitsSortProxy::setMapping(std::vector<std::int32_t> ids)
{
    m_toSource = std::move(ids);
    m_fromSource.clear();
    m_fromSource.resize(m_toSource.size());
    for (std::size_t row = 0; row < m_toSource.size(); ++row)
        m_fromSource[static_cast<std::size_t>(m_toSource[row])] = static_cast<std::int32_t>(row);
}

void LogitsSortProxy::resort(std::vector<std::int32_t> ids)
{
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    QModelIndexList sources;
    sources.reserve(before.size());
    for (const QModelIndex& index : before)
        sources << mapToSource(index);
    setMapping(std::move(ids));
    QModelIndexList after;
    after.reserve(sources.size());
    for (const QModelIndex& source : sources)
        after << mapFromSource(source);
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void LogitsSortProxy::sourceDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight,
                                        const QList<int>& roles)
{
    if (m_column < 0) {
        emit dataChanged(mapFromSource(topLeft), mapFromSource(bottomRight), roles);
        return;
    }
    if (m_column >= topLeft.column() && m_column <= bottomRight.column()) {
        // A temperature step changes p in every row but seldom the order by it (p descends along
        // the order by logit at every T): the same order is no layout change, which would have
        // the view lay out its rows and header again and the proxy rebuild its map, every step.
        std::vector<std::int32_t> ids = sortedIds();
        if (ids != m_toSource)
            resort(std::move(ids));
    }
    if (rowCount() == 0)
        return;
    // The changed source rows are scattered over the sorted rows: name the columns' whole span.
    emit dataChanged(index(0, topLeft.column()), index(rowCount() - 1, bottomRight.column()), roles);
}

QModelIndex LogitsSortProxy::mapToSource(const QModelIndex& proxyIndex) const
{
    if (!proxyIndex.isValid())
        return {};
    const int row = m_toSource.empty() ? proxyIndex.row() : m_toSource[static_cast<std::size_t>(proxyIndex.row())];
    return m_source->index(row, proxyIndex.column());
}

QModelIndex LogitsSortProxy::mapFromSource(const QModelIndex& sourceIndex) const
{
    if (!sourceIndex.isValid())
        return {};
    const int row =
        m_fromSource.empty() ? sourceIndex.row() : m_fromSource[static_cast<std::size_t>(sourceIndex.row())];
    return index(row, sourceIndex.column());
}

QModelIndex LogitsSortProxy::index(int row, int column, const QModelIndex& parent) const
{
    return hasIndex(row, column, parent) ? createIndex(row, column) : QModelIndex();
}

QModelIndex LogitsSortProxy::parent(const QModelIndex&) const { return {}; }

int LogitsSortProxy::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : m_source->rowCount(); }

int LogitsSortProxy::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : m_source->columnCount();
}

}  // namespace logitlab::ui
