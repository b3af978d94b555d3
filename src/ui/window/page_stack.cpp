#include "ui/window/page_stack.h"

namespace logitlab::ui {

PageStack::PageStack(QWidget* parent) : QStackedWidget(parent)
{
    // Another page's minimum now counts: the window's layout asks again.
    connect(this, &QStackedWidget::currentChanged, this, [this] { updateGeometry(); });
}

QSize PageStack::sizeHint() const
{
    const QWidget* page = currentWidget();
    return page ? page->sizeHint() : QStackedWidget::sizeHint();
}

QSize PageStack::minimumSizeHint() const
{
    const QWidget* page = currentWidget();
    return page ? page->minimumSizeHint().expandedTo(page->minimumSize()) : QStackedWidget::minimumSizeHint();
}

}  // namespace logitlab::ui
