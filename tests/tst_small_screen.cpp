// The window as a teacher's projector shows it: at 1024x768 every page fits (the window's
// minimum size is within it) and no visible button, label, tab bar or value box is squeezed
// below the width its text needs (its minimum size hint).
#include "main_window.h"
#include "page.h"
#include "workbench.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QStackedWidget>
#include <QTabBar>
#include <QTest>

using namespace logitlab::ui;

namespace {

// Visible widgets whose text must be readable in full: buttons, value boxes, combo boxes and
// one-line labels (word-wrapped and elided labels reflow, scroll areas scroll).
QStringList squeezed(QWidget* root, int* checked)
{
    QStringList problems;
    for (QWidget* w : root->findChildren<QWidget*>()) {
        if (!w->isVisibleTo(root) || w->visibleRegion().isEmpty())
            continue;
        // A tab bar whose tabs do not fit hides some behind scroll arrows.
        if (auto* tabs = qobject_cast<QTabBar*>(w); tabs != nullptr && tabs->sizeHint().width() > tabs->width() + 1) {
            problems << QStringLiteral("tab bar '%1' is %2 px wide, its tabs need %3")
                            .arg(tabs->tabText(0))
                            .arg(tabs->width())
                            .arg(tabs->sizeHint().width());
            continue;
        }
        const bool text = qobject_cast<QAbstractButton*>(w) != nullptr || qobject_cast<QAbstractSpinBox*>(w) != nullptr
                          || qobject_cast<QComboBox*>(w) != nullptr
                          || (qobject_cast<QLabel*>(w) != nullptr && !static_cast<QLabel*>(w)->wordWrap()
                              && !static_cast<QLabel*>(w)->text().isEmpty());
        if (!text)
            continue;
        ++*checked;
        const int need = w->minimumSizeHint().width();
        if (w->width() + 1 < need)
            problems << QStringLiteral("%1 '%2' is %3 px wide, needs %4")
                            .arg(QString::fromLatin1(w->metaObject()->className()), w->objectName())
                            .arg(w->width())
                            .arg(need);
    }
    return problems;
}

}  // namespace

class TestSmallScreen : public QObject {
    Q_OBJECT
private slots:
    void everyPageFits_data()
    {
        QTest::addColumn<int>("page");
        QTest::newRow("explorer") << 0;
        QTest::newRow("junk risk") << 1;
        QTest::newRow("seed sweep") << 2;
        QTest::newRow("loop") << 3;
    }
    void everyPageFits()
    {
        QFETCH(int, page);
        MainWindow window;
        buildWorkbench(window);
        window.pageList()->setCurrentRow(page);
        window.resize(1024, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QSize minimum = window.minimumSizeHint().expandedTo(window.minimumSize());
        QVERIFY2(minimum.width() <= 1024 && minimum.height() <= 768,
                 qPrintable(QStringLiteral("minimum %1x%2").arg(minimum.width()).arg(minimum.height())));
        QCOMPARE(window.size(), QSize(1024, 768));
        int checked = 0;
        const QStringList problems = squeezed(window.currentPage(), &checked);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1String("; "))));
        QVERIFY2(checked >= 10, qPrintable(QString::number(checked)));
    }
};

QTEST_MAIN(TestSmallScreen)
#include "tst_small_screen.moc"
