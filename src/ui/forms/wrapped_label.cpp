#include "ui/forms/wrapped_label.h"

#include <QResizeEvent>

namespace logitlab::ui {

WrappedLabel::WrappedLabel(QWidget* parent) : QLabel(parent)
{
    setWordWrap(true);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
}

QSize WrappedLabel::minimumSizeHint() const
{
    const QSize base = QLabel::minimumSizeHint();
    if (width() <= 0 || text().isEmpty())
        return base;
    return {base.width(), std::max(base.height(), heightForWidth(width()))};
}

void WrappedLabel::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    // A new width may need another number of lines; a new height alone needs nothing.
    if (event->size().width() != m_laidOutWidth) {
        m_laidOutWidth = event->size().width();
        updateGeometry();
    }
}

}  // namespace logitlab::ui
