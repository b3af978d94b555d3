#include "ui/forms/numeric_entry.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QEvent>

namespace logitlab::ui {

void NumericEntry::install()
{
    static NumericEntry* installed = nullptr;
    if (installed || !qApp)
        return;
    installed = new NumericEntry(qApp);
    qApp->installEventFilter(installed);
}

bool NumericEntry::eventFilter(QObject* watched, QEvent* event)
{
    // Polish comes once per widget before it is first shown (or when a test types into it).
    if (event->type() == QEvent::Polish)
        if (auto* box = qobject_cast<QAbstractSpinBox*>(watched))
            box->setKeyboardTracking(false);
    return QObject::eventFilter(watched, event);
}

}  // namespace logitlab::ui
