#include "ui/forms/flow_layout.h"

#include <QStyle>
#include <QWidget>

#include <algorithm>

namespace logitlab::ui {

FlowLayout::FlowLayout(QWidget* parent) : QLayout(parent) { setContentsMargins(0, 0, 0, 0); }

FlowLayout::~FlowLayout()
{
    while (QLayoutItem* item = takeAt(0))
        delete item;
}

void FlowLayout::addItem(QLayoutItem* item) { m_items.append(item); }

int FlowLayout::count() const { return static_cast<int>(m_items.size()); }

QLayoutItem* FlowLayout::itemAt(int index) const { return index >= 0 && index < count() ? m_items.at(index) : nullptr; }

QLayoutItem* FlowLayout::takeAt(int index) { return index >= 0 && index < count() ? m_items.takeAt(index) : nullptr; }

Qt::Orientations FlowLayout::expandingDirections() const { return {}; }

bool FlowLayout::hasHeightForWidth() const { return true; }

int FlowLayout::heightForWidth(int width) const { return arrange(QRect(0, 0, width, 0), false); }

QSize FlowLayout::minimumSize() const
{
    QSize size;
    for (const QLayoutItem* item : m_items)
        size = size.expandedTo(item->minimumSize());
    const QMargins m = contentsMargins();
    size += QSize(m.left() + m.right(), m.top() + m.bottom());
    // At the width it has, the lines it wraps to: a splitter pane (which knows nothing of height
    // for width) then keeps room for every line instead of cutting the last.
    if (m_width > 0)
        size.setHeight(std::max(size.height(), heightForWidth(m_width)));
    return size;
}

QSize FlowLayout::sizeHint() const
{
    // One line: what the row asks for when there is room.
    int width = 0;
    int height = 0;
    for (const QLayoutItem* item : m_items) {
        if (item->isEmpty())
            continue;
        width += item->sizeHint().width() + (width > 0 ? gap(QStyle::PM_LayoutHorizontalSpacing) : 0);
        height = std::max(height, item->sizeHint().height());
    }
    const QMargins m = contentsMargins();
    return {width + m.left() + m.right(), height + m.top() + m.bottom()};
}

void FlowLayout::setGeometry(const QRect& rect)
{
    QLayout::setGeometry(rect);
    arrange(rect, true);
    if (rect.width() != m_width) {
        const int lines = m_width > 0 ? heightForWidth(m_width) : -1;
        m_width = rect.width();
        // Another number of lines changes the minimum height: the parents are told after this
        // layout pass, not inside it.
        if (heightForWidth(m_width) != lines)
            QMetaObject::invokeMethod(this, &FlowLayout::invalidate, Qt::QueuedConnection);
    }
}

int FlowLayout::gap(QStyle::PixelMetric metric) const
{
    const int spacing = this->spacing();
    if (spacing >= 0)
        return spacing;
    const QWidget* parent = parentWidget();
    return parent ? parent->style()->pixelMetric(metric, nullptr, parent) : 6;
}

int FlowLayout::arrange(const QRect& rect, bool apply) const
{
    const QRect area = rect.marginsRemoved(contentsMargins());
    const int hGap = gap(QStyle::PM_LayoutHorizontalSpacing);
    const int vGap = gap(QStyle::PM_LayoutVerticalSpacing);
    int x = area.x();
    int y = area.y();
    int lineHeight = 0;
    for (QLayoutItem* item : m_items) {
        if (item->isEmpty())
            continue;
        const QSize size = item->sizeHint().boundedTo(QSize(std::max(area.width(), 1), QWIDGETSIZE_MAX));
        if (x > area.x() && x + size.width() > area.right() + 1) {
            x = area.x();
            y += lineHeight + vGap;
            lineHeight = 0;
        }
        if (apply)
            item->setGeometry(QRect(QPoint(x, y), size));
        x += size.width() + hGap;
        lineHeight = std::max(lineHeight, size.height());
    }
    const QMargins m = contentsMargins();
    return y + lineHeight - rect.y() + m.bottom();
}

}  // namespace logitlab::ui
