// The seed-sweep page offscreen: a run fills both tables and the charts and reproduces the
// lesson, Cancel leaves the previous results, bad controls are refused inline, replay (on a worker) says
// "bit for bit", files open and save, and both models pass QAbstractItemModelTester.
// With LOGITLAB_SCREENSHOT_DIR set, it saves a screenshot of the page after a run.
#include "charts/experiment_charts.h"
#include "engine/sampler/lesson_examples.h"
#include "support/example_files.h"
#include "support/experiment_page_run.h"
#include "support/run_experiment_file.h"
#include "support/test_support.h"
#include "ui/models/result_table_model.h"
#include "ui/pages/seed_sweep_page.h"
#include "ui/window/main_window.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QChart>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace logitlab;
using namespace logitlab::ui;

namespace {

using test::runAndWait;

}  // namespace

class TestSeedSweepPage : public QObject {
    Q_OBJECT
private slots:
    // The lesson's sweep is one seed: its chart says "1 seed", and more say "seeds".
    void oneSeedIsOneSeed_data()
    {
        QTest::addColumn<QString>("example");
        QTest::addColumn<QString>("title");
        QTest::newRow("one") << QStringLiteral("seed-sweep-lesson.json") << QStringLiteral("1 seed x 1000 draws");
        QTest::newRow("two hundred") << QStringLiteral("seed-sweep-200-seeds.json") << QStringLiteral("200 seeds x ");
    }
    void oneSeedIsOneSeed()
    {
        QFETCH(QString, example);
        QFETCH(QString, title);
        const auto result = test::runExperimentFile(test::examplePath(example));
        QVERIFY2(result, result ? "" : result.error().c_str());
        const ExperimentCharts charts = experimentCharts(result.value());
        QVERIFY(!charts.charts.isEmpty());
        const QString shown = charts.charts.front().second->title();
        QVERIFY2(shown.startsWith(title), qPrintable(shown));
    }

    void lessonRunFillsTablesAndCharts()
    {
        MainWindow window;
        auto* page = new SeedSweepPage;
        window.addPage(page);
        window.resize(1280, 800);
        window.show();
        QCOMPARE(page->openFile(test::examplePath(QStringLiteral("seed-sweep-lesson.json"))), QString());
        QVERIFY(runAndWait(*page));
        QCOMPARE(page->seedModel()->rowCount(), 1);
        QCOMPARE(page->tokenModel()->rowCount(), 3);
        // Seed 42: exactly the lesson's 493 / 393 / 114.
        QCOMPARE(page->tokenModel()
                     ->data(page->tokenModel()->index(0, page->tokenModel()->column(QStringLiteral("pooled_count"))))
                     .toULongLong(),
                 493u);
        QCOMPARE(page->tokenModel()
                     ->data(page->tokenModel()->index(1, page->tokenModel()->column(QStringLiteral("pooled_count"))))
                     .toULongLong(),
                 393u);
        QCOMPARE(page->tokenModel()
                     ->data(page->tokenModel()->index(2, page->tokenModel()->column(QStringLiteral("pooled_count"))))
                     .toULongLong(),
                 114u);
        QCOMPARE(page->tokenModel()
                     ->data(page->tokenModel()->index(0, page->tokenModel()->column(QStringLiteral("token"))))
                     .toString(),
                 QStringLiteral("=>"));
        QVERIFY(page->verdictLabel()->text().contains(QLatin1String("replayed bit for bit")));
        // The replay runs on a worker: its answer comes with replayEnded.
        QSignalSpy replayed(page, &SeedSweepPage::replayEnded);
        QCOMPARE(page->replay(42), QString());
        QVERIFY(replayed.wait(60000));
        QVERIFY(replayed.first().first().toString().contains(QLatin1String("replayed bit for bit")));
        QCOMPARE(page->replayLabel()->text(), replayed.first().first().toString());
        QVERIFY(!page->replayRunning());
        QVERIFY(page->replay(7).contains(QLatin1String("not one of the last run's seeds")));
        QVERIFY(
            page->provenance().csvCommentLines().join(QLatin1Char('\n')).contains(QLatin1String("# rng: mulberry32")));
    }

    void sweepOfManySeedsAndExports()
    {
        MainWindow window;
        auto* page = new SeedSweepPage;
        window.addPage(page);
        window.resize(1280, 800);
        window.show();
        page->seedCountBox()->setValue(200);
        page->drawsBox()->setValue(2000);
        QVERIFY(runAndWait(*page));
        QCOMPARE(page->seedModel()->rowCount(), 200);
        QVERIFY(page->verdictLabel()->text().contains(QLatin1String("Consistent with a correct sampler")));

        QTemporaryDir dir;
        page->tabs()->setCurrentIndex(3);  // per seed
        QCOMPARE(window.exportTableTo(dir.filePath(QStringLiteral("seeds.csv"))), QString());
        page->tabs()->setCurrentIndex(1);  // spread chart
        QCOMPARE(window.exportChartTo(dir.filePath(QStringLiteral("spread.svg"))), QString());
        QFile seeds(dir.filePath(QStringLiteral("seeds.csv")));
        QVERIFY(seeds.open(QIODevice::ReadOnly));
        const QString csv = QString::fromUtf8(seeds.readAll());
        QVERIFY(csv.contains(QLatin1String("# result: KS of chi-square p-values")));
        QCOMPARE(csv.count(QLatin1Char('\n')) - csv.count(QLatin1String("\n#")) - 1, 201);  // header + 200 seeds

        const QString shots = qEnvironmentVariable("LOGITLAB_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            page->tabs()->setCurrentIndex(0);
            QApplication::processEvents();
            QVERIFY(window.grab().save(QDir(shots).filePath(QStringLiteral("seed-sweep.png"))));
        }
    }

    void cancelKeepsThePreviousResults()
    {
        SeedSweepPage page;
        page.seedCountBox()->setValue(20);
        page.drawsBox()->setValue(1000);
        QVERIFY(runAndWait(page));
        const auto before = page.outcome().results.front().hash;
        page.seedCountBox()->setValue(100000);
        page.drawsBox()->setValue(100000);
        QSignalSpy ended(&page, &SeedSweepPage::runEnded);
        page.run();
        QVERIFY(page.isRunning());
        page.cancel();
        QVERIFY(ended.wait(10000));
        QCOMPARE(ended.first().first().toBool(), false);
        QCOMPARE(page.seedModel()->rowCount(), 20);
        QCOMPARE(page.outcome().results.front().hash, before);
    }

    void badControlsAreRefusedInline_data()
    {
        QTest::addColumn<QString>("chain");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown stage") << "top-q=0.5"
                                       << "unknown stage 'top-q'";
        QTest::newRow("bad value") << "top-p=abc"
                                   << "'abc' is not a number";
        QTest::newRow("stateful") << "mirostat-v2"
                                  << "needs a stateless chain";
    }
    void badControlsAreRefusedInline()
    {
        QFETCH(QString, chain);
        QFETCH(QString, message);
        SeedSweepPage page;
        page.show();
        page.chainEdit()->setText(chain);
        QSignalSpy ended(&page, &SeedSweepPage::runEnded);
        page.run();
        if (page.isRunning())
            QVERIFY(ended.wait(10000));
        QVERIFY(page.errorLabel()->isVisible());
        QVERIFY2(page.errorLabel()->text().contains(message), qPrintable(page.errorLabel()->text()));
        page.chainEdit()->setText(QStringLiteral("top-p=0.9"));
        page.seedCountBox()->setValue(3);
        QVERIFY(runAndWait(page));  // still works after the error
        QVERIFY(!page.errorLabel()->isVisible());
    }

    // A changed seed count or draw count marks the shown sweep stale until the next run.
    void staleResultsAreMarked()
    {
        SeedSweepPage page;
        page.show();
        page.seedCountBox()->setValue(20);
        page.drawsBox()->setValue(200);
        QVERIFY(runAndWait(page));
        QVERIFY(!page.staleLabel()->isVisible());
        page.seedCountBox()->setValue(21);
        QTRY_VERIFY(page.staleLabel()->isVisible());
        QVERIFY(runAndWait(page));
        QVERIFY(!page.staleLabel()->isVisible());
        page.threadsBox()->setValue(page.threadsBox()->value() == 1 ? 2 : 1);
        QTest::qWait(0);
        QVERIFY(!page.staleLabel()->isVisible());
    }

    void saveAndOpenRoundTrip()
    {
        QTemporaryDir dir;
        SeedSweepPage page;
        page.chainEdit()->setText(QStringLiteral("temperature=0.7,top-k=3"));
        page.seedCountBox()->setValue(17);
        const QString path = dir.filePath(QStringLiteral("my-sweep.json"));
        QCOMPARE(page.saveFile(path), QString());
        SeedSweepPage other;
        QCOMPARE(other.openFile(path), QString());
        QCOMPARE(other.chainEdit()->text(), QStringLiteral("temperature=0.7,top-k=3"));
        QCOMPARE(other.seedCountBox()->value(), 17);
        QVERIFY(!other.openFile(dir.filePath(QStringLiteral("missing.json"))).isEmpty());
        QVERIFY(!other.errorLabel()->isHidden());
    }

    void explorerLogitsAreSwept()
    {
        SeedSweepPage page;
        page.useLogits(engine::lessonExample());
        page.seedCountBox()->setValue(3);
        page.drawsBox()->setValue(500);
        QVERIFY(runAndWait(page));
        QCOMPARE(page.tokenModel()->rowCount(), 3);  // users, data, items survive top-p 0.9
        QCOMPARE(page.tokenModel()
                     ->data(page.tokenModel()->index(0, page.tokenModel()->column(QStringLiteral("token"))))
                     .toString(),
                 QStringLiteral("users"));
    }

    void modelsPassTheTester()
    {
        SeedSweepPage page;
        QAbstractItemModelTester seeds(page.seedModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester tokens(page.tokenModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.seedCountBox()->setValue(5);
        QVERIFY(runAndWait(page));
        page.seedCountBox()->setValue(2);
        QVERIFY(runAndWait(page));
    }
};

QTEST_MAIN(TestSeedSweepPage)
#include "tst_seed_sweep_page.moc"
