// Typed numbers stay as typed, on every page (issue: a teacher typing "0.5" into the Explorer's
// temperature got 0.00, greedy; "1.5" became 1.00). Every visible numeric field of every page is
// typed key by key, as fast as QTest types and at a person's pace: nothing reaches the page
// before Enter, and after Enter the field holds exactly the typed value.
#include "ui/forms/numeric_entry.h"
#include "ui/pages/explorer_page.h"
#include "ui/pages/page.h"
#include "ui/window/main_window.h"
#include "ui/window/workbench.h"

#include <QAbstractSpinBox>
#include <QDoubleSpinBox>
#include <QListWidget>
#include <QLocale>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QToolTip>

#include <cmath>

using namespace logitlab::ui;

namespace {

// A value inside the box's range, other than its current one, that its decimals can show.
double targetFor(double minimum, double maximum, int decimals, double current)
{
    const double span = std::min(maximum - minimum, 10.0);
    const double scale = std::pow(10.0, decimals);
    for (double fraction : {0.37, 0.61, 0.83}) {
        const double v = std::round((minimum + span * fraction) * scale) / scale;
        if (v > minimum && v <= maximum && v != current)
            return v;
    }
    return maximum;
}

// How a user types `value` into `box`: its digits in the box's locale, no group separators.
QString typedText(const QAbstractSpinBox* box, double value, int decimals)
{
    QLocale locale = box->locale();
    locale.setNumberOptions(locale.numberOptions() | QLocale::OmitGroupSeparator);
    return locale.toString(value, 'f', decimals);
}

// Types `text` into `box` key by key after selecting what it holds; `delay` ms between keys.
void typeInto(QAbstractSpinBox* box, const QString& text, int delay)
{
    box->setFocus(Qt::OtherFocusReason);
    box->selectAll();
    QTest::keyClicks(box, text, Qt::NoModifier, delay);
}

}  // namespace

class TestNumericEntry : public QObject {
    Q_OBJECT

private slots:
    void everyFieldKeepsWhatIsTyped_data()
    {
        QTest::addColumn<int>("page");
        QTest::addColumn<int>("delay");
        for (int page = 0; page < 6; ++page)
            for (int delay : {0, 40}) {
                const QByteArray name = QByteArray::number(page) + (delay ? " at a person's pace" : " at once");
                QTest::newRow(name.constData()) << page << delay;
            }
    }
    void everyFieldKeepsWhatIsTyped()
    {
        QFETCH(int, page);
        QFETCH(int, delay);
        MainWindow window;
        buildWorkbench(window);
        window.pageList()->setCurrentRow(page);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        Page* shown = window.currentPage();
        QTRY_VERIFY_WITH_TIMEOUT(!shown->findChildren<QAbstractSpinBox*>().isEmpty(), 5000);
        int typed = 0;
        for (QAbstractSpinBox* box : shown->findChildren<QAbstractSpinBox*>()) {
            if (!box->isVisibleTo(shown) || !box->isEnabled() || box->isReadOnly())
                continue;
            if (auto* d = qobject_cast<QDoubleSpinBox*>(box)) {
                const double target = targetFor(d->minimum(), d->maximum(), d->decimals(), d->value());
                QSignalSpy changed(d, &QDoubleSpinBox::valueChanged);
                typeInto(d, typedText(d, target, d->decimals()), delay);
                QVERIFY2(changed.isEmpty(), qPrintable(d->objectName() + QStringLiteral(": a value before Enter")));
                QTest::keyClick(d, Qt::Key_Return);
                QVERIFY2(
                    std::abs(d->value() - target) < 1e-12,
                    qPrintable(
                        QStringLiteral("%1: typed %2, holds %3").arg(d->objectName()).arg(target).arg(d->value())));
                ++typed;
            } else if (auto* i = qobject_cast<QSpinBox*>(box)) {
                const int target = static_cast<int>(targetFor(i->minimum(), i->maximum(), 0, i->value()));
                QSignalSpy changed(i, &QSpinBox::valueChanged);
                typeInto(i, typedText(i, target, 0), delay);
                QVERIFY2(changed.isEmpty(), qPrintable(i->objectName() + QStringLiteral(": a value before Enter")));
                QTest::keyClick(i, Qt::Key_Return);
                QVERIFY2(
                    i->value() == target,
                    qPrintable(
                        QStringLiteral("%1: typed %2, holds %3").arg(i->objectName()).arg(target).arg(i->value())));
                ++typed;
            }
        }
        QVERIFY2(typed > 0, "no numeric field was typed into");
        qInfo("%d fields typed on %s", typed, qPrintable(shown->title()));
    }

    // The teacher's cases, exactly: T = 0.5 is not greedy, 1.5 is 1.5, top-p 0.95 is 0.95.
    void lessonValuesTypedIntoTheExplorer_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("value");
        QTest::newRow("T = 0.5") << QStringLiteral("temperature") << QStringLiteral("0.5") << 0.5;
        QTest::newRow("T = 1.5") << QStringLiteral("temperature") << QStringLiteral("1.5") << 1.5;
        QTest::newRow("top-p 0.95") << QStringLiteral("top-p") << QStringLiteral("0.95") << 0.95;
    }
    void lessonValuesTypedIntoTheExplorer()
    {
        QFETCH(QString, field);
        QFETCH(QString, text);
        QFETCH(double, value);
        MainWindow window;
        const Workbench pages = buildWorkbench(window);
        window.showPage(pages.explorer);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QDoubleSpinBox* box =
            field == QLatin1String("temperature") ? pages.explorer->temperatureBox() : pages.explorer->topPBox();
        typeInto(box, text, 60);
        QTest::keyClick(box, Qt::Key_Return);
        QCOMPARE(box->value(), value);
        QCOMPARE(box->cleanText(), typedText(box, value, box->decimals()));
    }

    // A commit the box cannot take keeps the value it held, and says why at the field.
    void invalidValueKeepsTheOldOneAndSaysWhy_data()
    {
        QTest::addColumn<bool>("integer");
        QTest::addColumn<double>("minimum");
        QTest::addColumn<double>("maximum");
        QTest::addColumn<double>("before");
        QTest::addColumn<QString>("typed");
        QTest::addColumn<double>("after");
        QTest::addColumn<QString>("reason");  // empty: a good value, no reason
        QTest::newRow("emptied") << false << 0.0 << 1.0 << 0.9 << QString() << 0.9
                                 << "A number between 0.00 and 1.00 is needed";
        QTest::newRow("below the least") << true << 1.0 << 100.0 << 40.0 << "0" << 40.0 << "0 is not between 1 and 100";
        QTest::newRow("a prefix of nothing")
            << true << 10.0 << 100.0 << 40.0 << "5" << 40.0 << "5 is not between 10 and 100";
        QTest::newRow("good") << false << 0.0 << 1.0 << 0.9 << "0.5" << 0.5 << QString();
    }
    void invalidValueKeepsTheOldOneAndSaysWhy()
    {
        QFETCH(bool, integer);
        QFETCH(double, minimum);
        QFETCH(double, maximum);
        QFETCH(double, before);
        QFETCH(QString, typed);
        QFETCH(double, after);
        QFETCH(QString, reason);
        NumericEntry::install();
        QWidget window;
        QSpinBox whole(&window);
        QDoubleSpinBox real(&window);
        QAbstractSpinBox* box = integer ? static_cast<QAbstractSpinBox*>(&whole) : &real;
        whole.setRange(static_cast<int>(minimum), static_cast<int>(maximum));
        whole.setValue(static_cast<int>(before));
        real.setRange(minimum, maximum);
        real.setValue(before);
        real.move(0, 40);
        box->setLocale(QLocale::c());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        box->setFocus(Qt::OtherFocusReason);
        box->selectAll();
        QTest::keyClick(box, Qt::Key_Backspace);
        QTest::keyClicks(box, typed);
        QTest::keyClick(box, Qt::Key_Return);
        QCOMPARE(integer ? double(whole.value()) : real.value(), after);
        const QString said = box->property(NumericEntry::kInvalidReasonProperty).toString();
        if (reason.isEmpty()) {
            QVERIFY2(said.isEmpty(), qPrintable(said));
            return;
        }
        QVERIFY2(said.startsWith(reason), qPrintable(said));
        QVERIFY(said.endsWith(QLatin1String("the field keeps its value.")));
        QTRY_VERIFY(QToolTip::isVisible());
        QCOMPARE(QToolTip::text(), said);
    }
};

QTEST_MAIN(TestNumericEntry)
#include "tst_numeric_entry.moc"
