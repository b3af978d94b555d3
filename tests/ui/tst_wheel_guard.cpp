// The wheel policy of every page: a value control without focus passes the wheel to the scroll
// area around it and keeps its value; with focus (a click or Tab) the wheel changes it. In the
// workbench every slider, spin box and combo box is covered, on every page.
#include "ui/forms/wheel_guard.h"
#include "ui/window/main_window.h"
#include "ui/window/workbench.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QTest>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <functional>
#include <memory>

using namespace logitlab::ui;

namespace {

using ValueOf = std::function<double(QWidget*)>;

// A scroll area whose content is much taller than its viewport, with `control` near the top.
struct ScrolledPanel {
    QScrollArea area;
    QWidget* control = nullptr;
    QLineEdit* other = new QLineEdit;  // where the focus is when the control has none

    explicit ScrolledPanel(QWidget* c) : control(c)
    {
        auto* content = new QWidget;
        auto* layout = new QVBoxLayout(content);
        layout->addWidget(other);
        layout->addWidget(control);
        layout->addSpacing(3000);
        area.setWidget(content);
        area.resize(300, 200);
        area.show();
    }
};

void wheelDown(QWidget* control)
{
    const QPointF centre = QRectF(control->rect()).center();
    QWheelEvent wheel(centre, control->mapToGlobal(centre), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(control, &wheel);
}

}  // namespace

class TestWheelGuard : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { WheelGuard::install(); }

    void controls_data()
    {
        QTest::addColumn<std::function<QWidget*()>>("make");
        QTest::addColumn<ValueOf>("value");
        QTest::newRow("spin box") << std::function<QWidget*()>([] {
            auto* box = new QSpinBox;
            box->setRange(0, 100);
            box->setValue(50);
            return box;
        }) << ValueOf([](QWidget* w) { return double(static_cast<QSpinBox*>(w)->value()); });
        QTest::newRow("double spin box (T)") << std::function<QWidget*()>([] {
            auto* box = new QDoubleSpinBox;
            box->setRange(0.0, 5.0);
            box->setSingleStep(0.01);
            box->setValue(1.0);
            return box;
        }) << ValueOf([](QWidget* w) { return static_cast<QDoubleSpinBox*>(w)->value(); });
        QTest::newRow("slider") << std::function<QWidget*()>([] {
            auto* slider = new QSlider(Qt::Horizontal);
            slider->setRange(0, 500);
            slider->setValue(100);
            return slider;
        }) << ValueOf([](QWidget* w) { return double(static_cast<QSlider*>(w)->value()); });
        QTest::newRow("combo box") << std::function<QWidget*()>([] {
            auto* combo = new QComboBox;
            combo->addItems({QStringLiteral("lesson"), QStringLiteral("llama.cpp"), QStringLiteral("hf")});
            return combo;
        }) << ValueOf([](QWidget* w) { return double(static_cast<QComboBox*>(w)->currentIndex()); });
    }

    // Without focus the panel scrolls and the value stays; the control did not take focus.
    void unfocusedControlScrollsThePanel_data() { controls_data(); }
    void unfocusedControlScrollsThePanel()
    {
        QFETCH(std::function<QWidget*()>, make);
        QFETCH(ValueOf, value);
        ScrolledPanel panel(make());
        panel.area.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&panel.area));
        panel.other->setFocus();
        QTRY_VERIFY(panel.other->hasFocus());
        QCOMPARE(panel.control->focusPolicy(), Qt::StrongFocus);
        const double before = value(panel.control);
        QCOMPARE(panel.area.verticalScrollBar()->value(), 0);
        wheelDown(panel.control);
        QCOMPARE(value(panel.control), before);
        QVERIFY(panel.area.verticalScrollBar()->value() > 0);
        QVERIFY(!panel.control->hasFocus());
    }

    // Once the user has clicked or tabbed into it, the wheel is the control's.
    void focusedControlTakesTheWheel_data() { controls_data(); }
    void focusedControlTakesTheWheel()
    {
        QFETCH(std::function<QWidget*()>, make);
        QFETCH(ValueOf, value);
        ScrolledPanel panel(make());
        panel.area.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&panel.area));
        panel.control->setFocus();
        QTRY_VERIFY(panel.control->hasFocus());
        const double before = value(panel.control);
        wheelDown(panel.control);
        QVERIFY(value(panel.control) != before);
        QCOMPARE(panel.area.verticalScrollBar()->value(), 0);
    }

    // Scroll bars keep the wheel: that is what they are for.
    void scrollBarsAreNotGuarded()
    {
        QScrollBar bar;
        QVERIFY(!WheelGuard::guards(&bar));
        QSlider slider;
        QVERIFY(WheelGuard::guards(&slider));
    }

    // Every value control on every page of the workbench is covered: none takes focus from the
    // wheel, so a scroll over a page never changes a setting.
    void everyPageIsCovered()
    {
        MainWindow window;
        buildWorkbench(window);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        int checked = 0;
        for (QWidget* widget : window.findChildren<QWidget*>()) {
            if (!WheelGuard::guards(widget))
                continue;
            widget->ensurePolished();
            QVERIFY2(widget->focusPolicy() != Qt::WheelFocus, qPrintable(widget->objectName()));
            ++checked;
        }
        QVERIFY2(checked > 20, qPrintable(QString::number(checked)));
    }
};

QTEST_MAIN(TestWheelGuard)
#include "tst_wheel_guard.moc"
