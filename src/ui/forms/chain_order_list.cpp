#include "ui/forms/chain_order_list.h"

#include <QDropEvent>
#include <QKeyEvent>

#include <algorithm>

namespace logitlab::ui {

ChainOrderList::ChainOrderList(QWidget* parent) : QListWidget(parent)
{
    setDragDropMode(QAbstractItemView::InternalMove);
    setDefaultDropAction(Qt::MoveAction);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setFlow(QListView::TopToBottom);
    setUniformItemSizes(true);
    // Qt moves a dropped row with moveRows, or inserts a copy and removes the original after
    // the drag: either way the order is read once the row count is whole again.
    connect(model(), &QAbstractItemModel::rowsMoved, this, &ChainOrderList::reportIfChanged);
    connect(model(), &QAbstractItemModel::rowsRemoved, this, &ChainOrderList::reportIfChanged);
    setToolTip(tr("The order the stages run in. Drag a stage (or select it and press Ctrl+Up / Ctrl+Down) to "
                  "run it earlier or later; dimmed stages do nothing with their current values."));
}

void ChainOrderList::setStages(const std::vector<std::string>& order, const std::vector<std::string>& active)
{
    if (order == m_shown && active == m_active && count() == static_cast<int>(order.size()))
        return;  // a temperature step: nothing to redraw
    m_updating = true;
    m_active = active;
    const int current = currentRow();
    if (order != m_shown || count() != static_cast<int>(order.size())) {
        clear();
        for (const std::string& stage : order)
            addItem(QString::fromStdString(stage));
    }
    for (int i = 0; i < count(); ++i) {
        QListWidgetItem* it = item(i);
        const bool on = std::find(active.begin(), active.end(), it->text().toStdString()) != active.end();
        QFont font = it->font();
        font.setBold(on);
        it->setFont(font);
        it->setForeground(palette().brush(on ? QPalette::Active : QPalette::Disabled, QPalette::Text));
        it->setToolTip(on ? tr("%1: active").arg(it->text()) : tr("%1: off with its current values").arg(it->text()));
    }
    if (current >= 0 && current < count())
        setCurrentRow(current);
    m_shown = order;
    m_updating = false;
}

std::vector<std::string> ChainOrderList::order() const
{
    std::vector<std::string> out;
    for (int i = 0; i < count(); ++i)
        out.push_back(item(i)->text().toStdString());
    return out;
}

bool ChainOrderList::moveStage(int row, int delta)
{
    const int to = row + delta;
    if (row < 0 || row >= count() || to < 0 || to >= count())
        return false;
    QListWidgetItem* moved = takeItem(row);
    insertItem(to, moved);
    setCurrentRow(to);
    reportIfChanged();
    return true;
}

void ChainOrderList::dropEvent(QDropEvent* event)
{
    QListWidget::dropEvent(event);  // moves the item (InternalMove)
    reportIfChanged();
}

void ChainOrderList::keyPressEvent(QKeyEvent* event)
{
    if (event->modifiers() & Qt::ControlModifier) {
        if (event->key() == Qt::Key_Up && moveStage(currentRow(), -1))
            return;
        if (event->key() == Qt::Key_Down && moveStage(currentRow(), +1))
            return;
    }
    QListWidget::keyPressEvent(event);
}

void ChainOrderList::reportIfChanged()
{
    if (m_updating || count() != static_cast<int>(m_shown.size()))
        return;  // mid-move (a copy inserted, the original not yet removed), or being filled
    const auto now = order();
    if (now == m_shown)
        return;
    m_shown = now;
    emit orderChanged(now);
}

}  // namespace logitlab::ui
