// The seed-sweep page offscreen: a run fills both tables and the charts and reproduces the
// lesson, Cancel leaves the previous results, bad controls are refused inline, replay (on a worker) says
// "bit for bit", files open and save (a file's list of seeds too), and the table model passes
// QAbstractItemModelTester.
// With LOGITLAB_SCREENSHOT_DIR set, it saves a screenshot of the page after a run.
#include "app/kinds/seed_sweep_job.h"
#include "charts/experiment_charts.h"
#include "engine/sampler/lesson_examples.h"
#include "support/example_files.h"
#include "support/experiment_page_run.h"
#include "support/run_experiment_file.h"
#include "support/test_support.h"
#include "ui/forms/seed_sweep_form.h"
#include "ui/models/result_table_model.h"
#include "ui/pages/results_pane.h"
#include "ui/pages/seed_sweep_page.h"
#include "ui/window/main_window.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QVBoxLayout>

using namespace logitlab;
using namespace logitlab::ui;

namespace {

using test::runAndWait;

// The shown result's table with file suffix `suffix` (null before a run).
const app::ResultTable* shownTable(const SeedSweepPage& page, const QString& suffix)
{
    const app::ExperimentResult* result = page.results()->result();
    return result ? result->table(suffix) : nullptr;
}

int rowsOf(const SeedSweepPage& page, const QString& suffix)
{
    const app::ResultTable* table = shownTable(page, suffix);
    return table ? static_cast<int>(table->rows) : -1;
}

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
        QVERIFY(page->sweepForm()->seedListLabel()->isHidden());  // [42] reads as the range it is
        QVERIFY(runAndWait(*page));
        QCOMPARE(rowsOf(*page, QStringLiteral("-seeds")), 1);
        QVERIFY(page->results()->showTableOf(QString()));
        ResultTableModel* tokens = page->results()->model();
        QCOMPARE(tokens->rowCount(), 3);
        // Seed 42: exactly the lesson's 493 / 393 / 114.
        const int pooled = tokens->column(QStringLiteral("pooled_count"));
        QCOMPARE(tokens->data(tokens->index(0, pooled)).toULongLong(), 493u);
        QCOMPARE(tokens->data(tokens->index(1, pooled)).toULongLong(), 393u);
        QCOMPARE(tokens->data(tokens->index(2, pooled)).toULongLong(), 114u);
        QCOMPARE(tokens->data(tokens->index(0, tokens->column(QStringLiteral("token")))).toString(),
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
        page->sweepForm()->seedCountBox()->setValue(200);
        page->sweepForm()->drawsBox()->setValue(2000);
        QVERIFY(runAndWait(*page));
        QCOMPARE(rowsOf(*page, QStringLiteral("-seeds")), 200);
        QVERIFY(page->verdictLabel()->text().contains(QLatin1String("Consistent with a correct sampler")));

        QTemporaryDir dir;
        QVERIFY(page->results()->showTableOf(QStringLiteral("-seeds")));
        QCOMPARE(window.exportTableTo(dir.filePath(QStringLiteral("seeds.csv"))), QString());
        QVERIFY(page->results()->showChartOf(QStringLiteral("-spread")));
        QCOMPARE(window.exportChartTo(dir.filePath(QStringLiteral("spread.svg"))), QString());
        QFile seeds(dir.filePath(QStringLiteral("seeds.csv")));
        QVERIFY(seeds.open(QIODevice::ReadOnly));
        const QString csv = QString::fromUtf8(seeds.readAll());
        QVERIFY(csv.contains(QLatin1String("# result: KS of chi-square p-values")));
        QCOMPARE(csv.count(QLatin1Char('\n')) - csv.count(QLatin1String("\n#")) - 1, 201);  // header + 200 seeds

        const QString shots = qEnvironmentVariable("LOGITLAB_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            QVERIFY(page->results()->showChartOf(QString()));
            QApplication::processEvents();
            QVERIFY(window.grab().save(QDir(shots).filePath(QStringLiteral("seed-sweep.png"))));
        }
    }

    void cancelKeepsThePreviousResults()
    {
        SeedSweepPage page;
        page.setRunOnFirstShow(false);
        page.sweepForm()->seedCountBox()->setValue(20);
        page.sweepForm()->drawsBox()->setValue(1000);
        QVERIFY(runAndWait(page));
        QVERIFY(page.drawsRun());
        const auto before = page.drawsRun()->outcome.results.front().hash;
        page.sweepForm()->seedCountBox()->setValue(100000);
        page.sweepForm()->drawsBox()->setValue(100000);
        QSignalSpy ended(&page, &SeedSweepPage::runEnded);
        page.run();
        QVERIFY(page.isRunning());
        page.cancel();
        QVERIFY(ended.wait(10000));
        QCOMPARE(ended.first().first().toBool(), false);
        QCOMPARE(rowsOf(page, QStringLiteral("-seeds")), 20);
        QVERIFY(page.drawsRun());
        QCOMPARE(page.drawsRun()->outcome.results.front().hash, before);
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
        page.sweepForm()->chainEdit()->setText(chain);
        QSignalSpy ended(&page, &SeedSweepPage::runEnded);
        page.run();
        if (page.isRunning())
            QVERIFY(ended.wait(10000));
        QVERIFY(page.errorLabel()->isVisible());
        QVERIFY2(page.errorLabel()->text().contains(message), qPrintable(page.errorLabel()->text()));
        page.sweepForm()->chainEdit()->setText(QStringLiteral("top-p=0.9"));
        page.sweepForm()->seedCountBox()->setValue(3);
        QVERIFY(runAndWait(page));  // still works after the error
        QVERIFY(!page.errorLabel()->isVisible());
    }

    // A changed seed count or draw count marks the shown sweep stale until the next run.
    void staleResultsAreMarked()
    {
        SeedSweepPage page;
        page.show();
        page.sweepForm()->seedCountBox()->setValue(20);
        page.sweepForm()->drawsBox()->setValue(200);
        QVERIFY(runAndWait(page));
        QVERIFY(!page.staleLabel()->isVisible());
        page.sweepForm()->seedCountBox()->setValue(21);
        QTRY_VERIFY(page.staleLabel()->isVisible());
        QVERIFY(runAndWait(page));
        QVERIFY(!page.staleLabel()->isVisible());
        QSpinBox* threads = page.sweepForm()->threadsBox();
        threads->setValue(threads->value() == 1 ? 2 : 1);
        QTest::qWait(0);
        QVERIFY(!page.staleLabel()->isVisible());
    }

    void saveAndOpenRoundTrip()
    {
        QTemporaryDir dir;
        SeedSweepPage page;
        page.sweepForm()->chainEdit()->setText(QStringLiteral("temperature=0.7,top-k=3"));
        page.sweepForm()->seedCountBox()->setValue(17);
        const QString path = dir.filePath(QStringLiteral("my-sweep.json"));
        QCOMPARE(page.saveFile(path), QString());
        SeedSweepPage other;
        QCOMPARE(other.openFile(path), QString());
        QCOMPARE(other.sweepForm()->chainEdit()->text(), QStringLiteral("temperature=0.7,top-k=3"));
        QCOMPARE(other.sweepForm()->seedCountBox()->value(), 17);
        QVERIFY(!other.openFile(dir.filePath(QStringLiteral("missing.json"))).isEmpty());
        QVERIFY(!other.errorLabel()->isHidden());
    }

    // A file that lists its seeds runs them while the controls still show them; a changed
    // count sweeps a range from First seed instead.
    void aFilesSeedListIsKept()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("listed.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"logitlab": 1, "experiment": "seed-sweep", "name": "listed",
            "distribution": {"kind": "logits", "logits": [2.5, 2.2, 1.0]},
            "chain": "temperature=1", "seeds": [3, 17, 99], "draws": 200, "compare": [17, 99]})");
        file.close();
        SeedSweepPage page;
        page.setRunOnFirstShow(false);
        QCOMPARE(page.openFile(path), QString());
        SeedSweepForm* form = page.sweepForm();
        QCOMPARE(form->firstSeedBox()->value(), 3);
        QCOMPARE(form->seedCountBox()->value(), 3);
        QVERIFY(!form->seedListLabel()->isHidden());
        QVERIFY2(form->seedListLabel()->text().contains(QLatin1String("3, 17, 99")),
                 qPrintable(form->seedListLabel()->text()));
        QVERIFY(runAndWait(page));
        QVERIFY(page.drawsRun());
        std::vector<std::uint64_t> seeds;
        for (const auto& r : page.drawsRun()->outcome.results)
            seeds.push_back(r.seed);
        QCOMPARE(seeds, (std::vector<std::uint64_t>{3, 17, 99}));
        QCOMPARE(page.results()->result()->name, QStringLiteral("listed"));
        QVERIFY(page.verdictLabel()->text().contains(QLatin1String("first differ at draw")));
        // Saved, the list stays a list.
        const QString saved = dir.filePath(QStringLiteral("saved.json"));
        QCOMPARE(page.saveFile(saved), QString());
        QFile back(saved);
        QVERIFY(back.open(QIODevice::ReadOnly));
        QVERIFY(back.readAll().contains("99"));

        form->compareBox()->setChecked(false);
        form->seedCountBox()->setValue(4);
        QVERIFY(form->seedListLabel()->isHidden());
        QVERIFY(runAndWait(page));
        seeds.clear();
        for (const auto& r : page.drawsRun()->outcome.results)
            seeds.push_back(r.seed);
        QCOMPARE(seeds, (std::vector<std::uint64_t>{3, 4, 5, 6}));
    }

    // File > New: the lesson's exercise again, and the replies' prompt and length too (a file
    // of draws leaves them as they are, so switching to replies after one has a prompt).
    void newPutsTheStartBack()
    {
        SeedSweepPage page;
        page.setRunOnFirstShow(false);
        SeedSweepForm* form = page.sweepForm();
        QCOMPARE(page.openFile(test::examplePath(QStringLiteral("seed-sweep-lesson.json"))), QString());
        form->modeBox()->setCurrentIndex(SeedSweepForm::RepliesMode);
        QCOMPARE(form->promptEdit()->text(), QStringLiteral("The sampler"));
        form->promptEdit()->setText(QStringLiteral("Once"));
        form->stepsBox()->setValue(3);
        form->seedCountBox()->setValue(9);
        page.reset();
        QCOMPARE(form->modeBox()->currentIndex(), int(SeedSweepForm::DrawsMode));
        QCOMPARE(form->sourceBox()->currentIndex(), int(SeedSweepForm::LessonExercise));
        QCOMPARE(form->promptEdit()->text(), QStringLiteral("The sampler"));
        QCOMPARE(form->stepsBox()->value(), 12);
        QCOMPARE(form->seedCountBox()->value(), 200);
        const auto spec = form->spec();
        QVERIFY2(spec, spec ? "" : spec.error().c_str());
        QCOMPARE(app::toJson(spec.value()), app::toJson(SeedSweepForm::startSpec()));
    }

    // Values typed key by key, as in front of a class, are what the experiment reads; Ctrl+R
    // pressed in a box before Enter runs what the box shows (its typing is committed first: the
    // boxes take a value on commit, not per keystroke, and the focus never left the box).
    void typedValuesAreRead()
    {
        QWidget window;
        auto* page = new SeedSweepPage;
        auto* layout = new QVBoxLayout(&window);
        layout->addWidget(page);
        page->setRunOnFirstShow(false);
        window.resize(1280, 800);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        SeedSweepForm* form = page->sweepForm();
        const auto type = [](QWidget* box, const QString& text) {
            box->setFocus();
            if (auto* spin = qobject_cast<QSpinBox*>(box))
                spin->selectAll();
            else
                qobject_cast<QLineEdit*>(box)->selectAll();
            QTest::keyClicks(box, text);
            QTest::keyClick(box, Qt::Key_Tab);  // on to the next field, as a user would
        };
        type(form->firstSeedBox(), QStringLiteral("7"));
        type(form->seedCountBox(), QStringLiteral("37"));
        type(form->drawsBox(), QStringLiteral("1500"));
        type(form->chainEdit(), QStringLiteral("temperature=0.5,top-k=3"));
        const auto spec = form->spec();
        QVERIFY2(spec, spec ? "" : spec.error().c_str());
        QCOMPARE(spec->firstSeed, 7);
        QCOMPARE(spec->seedCount, 37);
        QCOMPARE(spec->draws, 1500);
        QCOMPARE(spec->chain, QStringLiteral("temperature=0.5,top-k=3"));

        // Typed, not committed, then Ctrl+R.
        QSpinBox* seeds = form->seedCountBox();
        seeds->setFocus();
        seeds->selectAll();
        QTest::keyClicks(seeds, QStringLiteral("12"));
        QCOMPARE(seeds->value(), 37);  // nothing committed yet
        QSignalSpy ended(page, &SeedSweepPage::runEnded);
        QTest::keyClick(seeds, Qt::Key_R, Qt::ControlModifier);
        QVERIFY(ended.wait(60000));
        QVERIFY(ended.first().first().toBool());
        QVERIFY(page->drawsRun());
        QCOMPARE(page->drawsRun()->outcome.results.size(), std::size_t{12});
        QCOMPARE(page->drawsRun()->outcome.results.front().seed, std::uint64_t{7});
        QCOMPARE(page->drawsRun()->spec.chain, QStringLiteral("temperature=0.5,top-k=3"));

        // The same for File > Save (Ctrl+S) to the page's file: the value the box shows is saved.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("typed.json"));
        seeds->setFocus();
        seeds->selectAll();
        QTest::keyClicks(seeds, QStringLiteral("9"));
        QCOMPARE(page->saveExperiment(path), QString());
        const auto saved = app::readSeedSweepFile(path);
        QVERIFY2(saved, saved ? "" : saved.error().c_str());
        QCOMPARE(saved->seedCount, 9);
    }

    void explorerLogitsAreSwept()
    {
        SeedSweepPage page;
        page.setRunOnFirstShow(false);
        QVERIFY(page.acceptDistribution(engine::lessonExample()));
        QCOMPARE(page.sweepForm()->sourceBox()->currentIndex(), int(SeedSweepForm::ExplorerLogits));
        page.sweepForm()->seedCountBox()->setValue(3);
        page.sweepForm()->drawsBox()->setValue(500);
        QVERIFY(runAndWait(page));
        QVERIFY(page.results()->showTableOf(QString()));
        ResultTableModel* tokens = page.results()->model();
        QCOMPARE(tokens->rowCount(), 3);  // users, data, items survive top-p 0.9
        QCOMPARE(tokens->data(tokens->index(0, tokens->column(QStringLiteral("token")))).toString(),
                 QStringLiteral("users"));
    }

    void modelsPassTheTester()
    {
        SeedSweepPage page;
        page.setRunOnFirstShow(false);
        QAbstractItemModelTester tester(page.results()->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.sweepForm()->seedCountBox()->setValue(5);
        QVERIFY(runAndWait(page));
        QVERIFY(page.results()->showTableOf(QStringLiteral("-seeds")));
        QCOMPARE(page.results()->model()->rowCount(), 5);
        page.sweepForm()->seedCountBox()->setValue(2);
        QVERIFY(runAndWait(page));
        QCOMPARE(page.results()->model()->rowCount(), 2);
        QVERIFY(page.results()->showTableOf(QString()));
    }
};

QTEST_MAIN(TestSeedSweepPage)
#include "tst_seed_sweep_page.moc"
