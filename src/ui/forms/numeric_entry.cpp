#include "ui/forms/numeric_entry.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QSpinBox>
#include <QToolTip>

namespace logitlab::ui {

namespace {

// The box's range in its own locale and decimals: "0 and 1", "1 and 2147483647".
QString rangeText(const QAbstractSpinBox* box, double minimum, double maximum, int decimals)
{
    QLocale locale = box->locale();
    locale.setNumberOptions(locale.numberOptions() | QLocale::OmitGroupSeparator);
    const auto shown = [&](double v) { return locale.toString(v, 'f', decimals); };
    return NumericEntry::tr("%1 and %2").arg(shown(minimum), shown(maximum));
}

}  // namespace

QString NumericEntry::invalidReason(const QAbstractSpinBox* box)
{
    if (box->hasAcceptableInput())
        return {};
    double minimum = 0.0;
    double maximum = 0.0;
    int decimals = 0;
    QString typed;  // without prefix or suffix
    if (const auto* d = qobject_cast<const QDoubleSpinBox*>(box)) {
        minimum = d->minimum();
        maximum = d->maximum();
        decimals = d->decimals();
        typed = d->cleanText().trimmed();
    } else if (const auto* i = qobject_cast<const QSpinBox*>(box)) {
        minimum = i->minimum();
        maximum = i->maximum();
        typed = i->cleanText().trimmed();
    } else {
        return tr("This value cannot be used; the field keeps its value.");
    }
    bool isNumber = false;
    box->locale().toDouble(typed, &isNumber);
    const QString range = rangeText(box, minimum, maximum, decimals);
    if (typed.isEmpty())
        return tr("A number between %1 is needed; the field keeps its value.").arg(range);
    if (!isNumber)
        return tr("\"%1\" is not a number between %2; the field keeps its value.").arg(typed, range);
    return tr("%1 is not between %2; the field keeps its value.").arg(typed, range);
}

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
    const QEvent::Type type = event->type();
    if (type != QEvent::Polish && type != QEvent::KeyPress && type != QEvent::FocusOut)
        return QObject::eventFilter(watched, event);
    auto* box = qobject_cast<QAbstractSpinBox*>(watched);
    if (!box)
        return QObject::eventFilter(watched, event);
    // Polish comes once per widget before it is first shown (or when a test types into it).
    if (type == QEvent::Polish) {
        box->setKeyboardTracking(false);
        return QObject::eventFilter(watched, event);
    }
    if (type == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key != Qt::Key_Return && key != Qt::Key_Enter)
            return QObject::eventFilter(watched, event);
    }
    reportCommit(box);
    return QObject::eventFilter(watched, event);
}

void NumericEntry::reportCommit(QAbstractSpinBox* box)
{
    // A commit (Enter, focus leaving). Qt puts an unusable text back to the value the box held,
    // silently: say why next to the field, so a typo is not taken for a result.
    const QString reason = invalidReason(box);
    box->setProperty(kInvalidReasonProperty, reason);
    if (!reason.isEmpty())
        QToolTip::showText(box->mapToGlobal(QPoint(0, box->height())), reason, box, QRect(), 6000);
}

void NumericEntry::commitTyped()
{
    // The focus is on the box's line edit: the box is an ancestor.
    for (QWidget* w = QApplication::focusWidget(); w; w = w->parentWidget()) {
        if (auto* box = qobject_cast<QAbstractSpinBox*>(w)) {
            reportCommit(box);
            box->interpretText();
            return;
        }
    }
}

}  // namespace logitlab::ui
