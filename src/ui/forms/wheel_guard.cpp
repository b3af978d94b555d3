#include "ui/forms/wheel_guard.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QScrollBar>
#include <QWheelEvent>
#include <QWidget>

namespace logitlab::ui {

namespace {

// Hands the wheel to the viewport of the nearest scroll area around `control` (explicitly:
// Qt propagates only spontaneous wheel events to parents, and the result must not depend on
// where the event came from). Without a scroll area around it, the wheel does nothing.
void forwardToScrollArea(QWidget* control, const QWheelEvent* wheel)
{
    for (QWidget* w = control->parentWidget(); w != nullptr; w = w->parentWidget()) {
        auto* area = qobject_cast<QAbstractScrollArea*>(w);
        if (area == nullptr)
            continue;
        QWidget* viewport = area->viewport();
        const QPointF position = viewport->mapFromGlobal(wheel->globalPosition());
        QWheelEvent forwarded(position, wheel->globalPosition(), wheel->pixelDelta(), wheel->angleDelta(),
                              wheel->buttons(), wheel->modifiers(), wheel->phase(), wheel->inverted(), wheel->source());
        QCoreApplication::sendEvent(viewport, &forwarded);
        return;
    }
}

}  // namespace

void WheelGuard::install()
{
    static WheelGuard* guard = nullptr;
    if (guard != nullptr || qApp == nullptr)
        return;
    guard = new WheelGuard(qApp);
    qApp->installEventFilter(guard);
}

bool WheelGuard::guards(const QObject* widget)
{
    if (qobject_cast<const QScrollBar*>(widget) != nullptr)
        return false;
    return qobject_cast<const QAbstractSlider*>(widget) != nullptr ||
           qobject_cast<const QAbstractSpinBox*>(widget) != nullptr ||
           qobject_cast<const QComboBox*>(widget) != nullptr;
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event)
{
    switch (event->type()) {
    case QEvent::Polish:
        // Qt gives wheel focus to a spin box or slider under the pointer before delivering the
        // wheel; StrongFocus (click or Tab) keeps a scroll from focusing the control it passes.
        if (guards(watched)) {
            auto* widget = static_cast<QWidget*>(watched);
            if (widget->focusPolicy() == Qt::WheelFocus)
                widget->setFocusPolicy(Qt::StrongFocus);
        }
        break;
    case QEvent::Wheel:
        if (guards(watched) && !static_cast<QWidget*>(watched)->hasFocus()) {
            forwardToScrollArea(static_cast<QWidget*>(watched), static_cast<QWheelEvent*>(event));
            return true;
        }
        break;
    default:
        break;
    }
    return QObject::eventFilter(watched, event);
}

}  // namespace logitlab::ui
