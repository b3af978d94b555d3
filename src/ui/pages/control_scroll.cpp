#include "ui/pages/control_scroll.h"

#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>
#include <QWidget>

namespace logitlab::ui {

QScrollArea* controlScroll(QWidget* panel)
{
    auto* scroll = new QScrollArea;
    scroll->setObjectName(QLatin1String(kPageControls));
    scroll->setWidget(panel);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Room for the vertical bar when it shows, so it never covers the controls.
    scroll->setMinimumWidth(panel->sizeHint().width() + scroll->style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 4);
    return scroll;
}

}  // namespace logitlab::ui
