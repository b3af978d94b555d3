// Typed numbers stay as typed: every spin box in the program takes its value when the typing is
// committed (Enter, Tab, focus leaving, an arrow key or the wheel), not at every keystroke.
// With Qt's default each keystroke was a value: a page recomputed on the "0" of "0.5" (greedy
// at T = 0), then set the box again from its state, reformatting "0" to "0.00" under the
// cursor, so "0.5" typed at a normal pace became 0.00 and "1.5" became 1.00. Installed once on
// the application, it covers every page, dialog and control created later (on their polish).
// A commit the box cannot take (empty, not a number, out of range) keeps the box's value, as
// Qt does, and says why in a tooltip at the field (and in the box's "invalidReason" property).
#pragma once

#include <QObject>
#include <QString>

QT_BEGIN_NAMESPACE
class QAbstractSpinBox;
QT_END_NAMESPACE

namespace logitlab::ui {

class NumericEntry : public QObject {
    Q_OBJECT
public:
    // Installs the policy on the running QApplication, once however often it is called.
    static void install();
    // Why `box` cannot take what it holds as typed, or empty when it can.
    static QString invalidReason(const QAbstractSpinBox* box);
    // Commits what the focused box holds as typed, as Enter would: a shortcut (Ctrl+R, F10) acts
    // on what the box shows, not on the value before the typing (the focus never left the box).
    static void commitTyped();
    // The property the reason of the last commit is kept in (empty after a good one).
    static constexpr char kInvalidReasonProperty[] = "invalidReason";

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    using QObject::QObject;
    // A commit is coming: keep (and show) why it cannot take the text, if it cannot.
    static void reportCommit(QAbstractSpinBox* box);
};

}  // namespace logitlab::ui
