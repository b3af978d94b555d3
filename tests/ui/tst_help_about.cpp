// Help and About (issue 16): every page explains what it shows and loads the lesson's worked
// example in one step, and About names the version, git hash, Qt version and the licences.
#include "app/io/build_info.h"
#include "support/example_files.h"
#include "support/test_support.h"
#include "ui/pages/explorer_page.h"
#include "ui/pages/page.h"
#include "ui/window/main_window.h"
#include "ui/window/workbench.h"

#include <QAction>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace logitlab;

namespace {

// What the page would save: its whole state, read back from the file it writes.
QByteArray savedState(ui::Page& page)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("state.logitlab.json"));
    if (const QString error = page.saveExperiment(path); !error.isEmpty())
        qFatal("save failed: %s", qPrintable(error));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return file.readAll();
}

void settle(const ui::Workbench& workbench) { QTRY_VERIFY_WITH_TIMEOUT(!workbench.explorer->loading(), 30000); }

}  // namespace

class TestHelpAbout : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void everyPageHasLessonAndWorkedExample_data()
    {
        QTest::addColumn<QString>("page");
        QTest::addColumn<QString>("other");     // a different example opened first
        QTest::addColumn<QString>("example");   // the file the worked example is a copy of
        QTest::addColumn<QString>("mentions");  // a number of the lesson the text must give
        QTest::newRow("explorer") << "explorer"
                                  << "explorer-llama-xtc.json"
                                  << "explorer-lesson.json"
                                  << "0.918";
        QTest::newRow("junk-risk") << "junk-risk"
                                   << "junk-risk-normal.json"
                                   << "junk-risk-lesson.json"
                                   << "0.30";
        QTest::newRow("seed-sweep") << "seed-sweep"
                                    << "seed-sweep-200-seeds.json"
                                    << "seed-sweep-lesson.json"
                                    << "493 / 393 / 114";
        QTest::newRow("loop") << "loop"
                              << "loop-greedy-branch.json"
                              << "loop-lesson.json"
                              << "400 × 25 ms";
    }
    void everyPageHasLessonAndWorkedExample()
    {
        QFETCH(QString, page);
        QFETCH(QString, other);
        QFETCH(QString, example);
        QFETCH(QString, mentions);

        ui::MainWindow window;
        const ui::Workbench workbench = ui::buildWorkbench(window);
        ui::Page* shown = window.page(page);
        QVERIFY(shown);
        window.showPage(shown);
        QVERIFY2(shown->lessonHtml().contains(mentions), qPrintable(shown->lessonHtml()));
        QVERIFY(!shown->workedExample().isEmpty());

        QCOMPARE(window.openExperimentFrom(test::examplePath(other)), QString());
        settle(workbench);
        const QByteArray before = savedState(*shown);
        QCOMPARE(window.loadWorkedExample(), QString());
        settle(workbench);
        QCOMPARE(window.currentPage(), shown);
        const QByteArray loaded = savedState(*shown);
        QVERIFY(loaded != before);

        // The same state as opening the example file itself.
        ui::MainWindow reference;
        const ui::Workbench referenceBench = ui::buildWorkbench(reference);
        QCOMPARE(reference.openExperimentFrom(test::examplePath(example)), QString());
        settle(referenceBench);
        QCOMPARE(loaded, savedState(*reference.page(page)));
    }

    void helpMenuOffersLessonAndExample()
    {
        ui::MainWindow window;
        ui::buildWorkbench(window);
        QMenu* help = nullptr;
        for (QAction* action : window.menuBar()->actions())
            if (action->text() == QLatin1String("&Help"))
                help = action->menu();
        QVERIFY(help);
        QStringList texts;
        for (QAction* action : help->actions())
            texts << action->text();
        QVERIFY2(texts.contains(QStringLiteral("&What this page shows")), qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY(texts.contains(QStringLiteral("Load the lesson's &worked example")));
        QVERIFY(texts.contains(QStringLiteral("&About LogitLab")));
    }

    void aboutNamesVersionQtAndLicences()
    {
        ui::MainWindow window;
        const QString about = window.aboutText();
        QVERIFY(!app::appVersion().isEmpty());
        QVERIFY2(about.contains(QStringLiteral("LogitLab ") + app::appVersion()), qPrintable(about));
        QVERIFY(about.contains(app::gitHash()));
        QVERIFY(about.contains(QStringLiteral("Qt ") + QString::fromLatin1(qVersion())));
        for (const char* licence : {"GPL-3.0", "LGPL-3.0", "MPL-2.0", "BSL-1.0", "Eigen", "Boost"})
            QVERIFY2(about.contains(QLatin1String(licence)), licence);
    }
};

QTEST_MAIN(TestHelpAbout)
#include "tst_help_about.moc"
