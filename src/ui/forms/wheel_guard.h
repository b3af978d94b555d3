// The mouse wheel scrolls the page, not the control under the pointer. Sliders, spin boxes and
// combo boxes take the wheel only once they have keyboard focus (a click or Tab); otherwise the
// wheel goes to the scroll area around them, so scrolling a panel of controls never changes a value on the
// way (a scroll over the Explorer's controls once moved T from 1.00 to 0.79). Installed once on
// the application; it covers every page and controls created later.
#pragma once

#include <QObject>

namespace logitlab::ui {

class WheelGuard : public QObject {
    Q_OBJECT
public:
    // Installs the guard on the running QApplication, once however often it is called.
    static void install();

    // Whether `widget` is a value control the guard protects (a scroll bar is not one: the wheel
    // is what it is for).
    static bool guards(const QObject* widget);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    using QObject::QObject;
};

}  // namespace logitlab::ui
