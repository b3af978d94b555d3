// The seed-sweep page in its whole-replies mode, offscreen: opening a "source": "sequence" file
// switches the mode and shows the prompt and length instead of the distribution and draws; a run
// fills the three tables (equal to what logitlab-cli run writes for the same file) and the two
// charts; bad controls (no prompt, too many seeds x steps) are refused next to the controls and
// the page keeps working; the models pass QAbstractItemModelTester. An opened file whose
// distribution has "steps" runs every step in turn and shows one row per step.
#include "app/kinds/experiment_kind.h"
#include "app/kinds/sequence_sweep_job.h"
#include "support/example_files.h"
#include "support/experiment_page_run.h"
#include "support/small_npy.h"
#include "support/tiny_gguf_model.h"
#include "ui/forms/seed_sweep_form.h"
#include "ui/models/result_table_model.h"
#include "ui/pages/results_pane.h"
#include "ui/pages/seed_sweep_page.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QJsonDocument>
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

// A table's CSV without its provenance lines (the page names its runs after the controls, the
// file after itself).
QString rowsOf(const QString& csv)
{
    QStringList lines = csv.split(QLatin1Char('\n'));
    lines.removeIf([](const QString& line) { return line.startsWith(QLatin1Char('#')); });
    return lines.join(QLatin1Char('\n'));
}

// The page's table of file suffix `suffix`, as the table model shows it.
ResultTableModel* shownModel(SeedSweepPage& page, const QString& suffix)
{
    return page.results()->showTableOf(suffix) ? page.results()->model() : nullptr;
}

QString csvOf(const app::Provenance& provenance, const ResultTableModel* model)
{
    return rowsOf(app::resultTableCsv(provenance, model->table()));
}

}  // namespace

class TestSequenceSweepPage : public QObject {
    Q_OBJECT
private slots:
    // A GGUF model in the Model field writes the replies: the page's tables equal what the same
    // file gives through its kind, and the field round-trips through the file.
    void aGgufModelWritesTheReplies()
    {
        QTemporaryDir dir;
        const QString model = dir.filePath(QStringLiteral("tiny.gguf"));
        QVERIFY(test::tinyLlama(engine::gguf::GgmlType::Q8_0, true, 64).writeFile(model.toStdString()));
        SeedSweepPage page;
        page.setRunOnFirstShow(false);
        page.resize(1280, 800);
        SeedSweepForm* form = page.sweepForm();
        form->modeBox()->setCurrentIndex(int(SeedSweepForm::RepliesMode));
        QVERIFY(form->modelFileEdit()->isVisibleTo(&page));
        form->modelFileEdit()->setText(model);
        form->promptEdit()->setText(QStringLiteral("hi!"));
        form->stepsBox()->setValue(5);
        form->seedCountBox()->setValue(6);
        const auto spec = form->spec();
        QVERIFY2(spec, spec ? "" : spec.error().c_str());
        QCOMPARE(spec->modelFile, model);
        QVERIFY(runAndWait(page));
        const app::SequenceSweepOutcome direct = app::runSequenceSweep(spec.value(), QString(), {}, 1, {});
        QVERIFY(direct.status.finished());
        QVERIFY(page.repliesRun());
        QCOMPARE(page.repliesRun()->outcome.replies, direct.replies);
        const QString file = dir.filePath(QStringLiteral("replies.json"));
        QCOMPARE(page.saveExperiment(file), QString());
        SeedSweepPage again;
        again.setRunOnFirstShow(false);
        QCOMPARE(again.openFile(file), QString());
        QCOMPARE(again.sweepForm()->modelFileEdit()->text(), model);
    }

    void openedFileRunsWholeReplies()
    {
        SeedSweepPage page;
        SeedSweepForm* form = page.sweepForm();
        QCOMPARE(page.openFile(test::examplePath(QStringLiteral("seed-sweep-sequence.json"))), QString());
        QCOMPARE(form->modeBox()->currentIndex(), int(SeedSweepForm::RepliesMode));
        QCOMPARE(form->promptEdit()->text(), QStringLiteral("The sampler"));
        QCOMPARE(form->stepsBox()->value(), 8);
        form->seedCountBox()->setValue(30);
        page.resize(1280, 800);
        page.show();  // the first show runs what the controls say
        QSignalSpy ended(&page, &SeedSweepPage::runEnded);
        QVERIFY(ended.wait(120000));
        QVERIFY(ended.first().first().toBool());
        // The replies mode shows its own inputs and hides the draws' ones.
        QVERIFY(form->promptEdit()->isVisible());
        QVERIFY(form->stepsBox()->isVisible());
        QVERIFY(!form->drawsBox()->isVisible());
        // The replies' findings in words, not the draws' statistics and replay.
        QVERIFY(page.findingsLabel()->isVisible());
        QVERIFY(!page.verdictLabel()->isVisible());
        QVERIFY(!page.replayLabel()->isVisible());
        QVERIFY(!page.drawsRun());

        QAbstractItemModelTester tester(page.results()->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(page.repliesRun());
        const auto& census = page.repliesRun()->outcome.census;
        QCOMPARE(shownModel(page, QStringLiteral("-seeds"))->rowCount(), 30);
        QCOMPARE(shownModel(page, QStringLiteral("-first-difference"))->rowCount(), 8);
        ResultTableModel* replies = shownModel(page, QString());
        QCOMPARE(replies->rowCount(), int(census.replies.size()));
        qint64 total = 0;
        const int seedsColumn = replies->column(QStringLiteral("seeds"));
        for (int r = 0; r < replies->rowCount(); ++r)
            total += replies->data(replies->index(r, seedsColumn)).toLongLong();
        QCOMPARE(total, 30);
        QVERIFY(page.findingsLabel()->text().contains(
            QStringLiteral("%1 distinct replies from 30 seeds").arg(census.replies.size())));

        // The page's tables are the CLI's, byte for byte (provenance included).
        auto root = app::readExperimentJson(test::examplePath(QStringLiteral("seed-sweep-sequence.json")));
        QVERIFY(root);
        app::RunContext context;
        context.source = QStringLiteral("test");
        context.threads = 3;
        const auto result =
            app::findExperimentKind(QStringLiteral("seed-sweep"))
                ->run(app::applyOverride(root.value(), QStringLiteral("seeds.count=30")).value(), context);
        QVERIFY(result.status.finished());
        QCOMPARE(csvOf(page.provenance(), shownModel(page, QString())),
                 rowsOf(app::resultTableCsv(result.provenance, *result.table(QString()))));
        QVERIFY(app::resultTableCsv(page.provenance(), shownModel(page, QString())->table())
                    .contains(QLatin1String("\n# source: sequence")));
        QCOMPARE(page.resultTable()->suffix, QString());
        QCOMPARE(csvOf(page.provenance(), shownModel(page, QStringLiteral("-seeds"))),
                 rowsOf(app::resultTableCsv(result.provenance, *result.table(QStringLiteral("-seeds")))));
        QCOMPARE(page.resultTable()->suffix, QStringLiteral("-seeds"));
        QVERIFY(page.results()->showChartOf(QStringLiteral("-first-difference")));
        QVERIFY(page.chart() != nullptr);
        QVERIFY(page.chart()->title().contains(QLatin1String("first differ")));

        // Back to draws: the draws' inputs again, and the replies shown are stale.
        form->modeBox()->setCurrentIndex(SeedSweepForm::DrawsMode);
        QVERIFY(form->drawsBox()->isVisible());
        QVERIFY(!form->promptEdit()->isVisible());
        QTRY_VERIFY(page.staleLabel()->isVisible());
        QVERIFY(runAndWait(page));
        QVERIFY(page.drawsRun());
        QVERIFY(page.verdictLabel()->isVisible());
        QVERIFY(!page.findingsLabel()->isVisible());
    }

    void badControlsAreRefusedInline_data()
    {
        QTest::addColumn<QString>("prompt");
        QTest::addColumn<int>("steps");
        QTest::addColumn<int>("seeds");
        QTest::addColumn<QString>("message");
        QTest::newRow("no prompt") << QString() << 5 << 3 << QStringLiteral("prompt: must hold at least one word");
        QTest::newRow("spaces only") << QStringLiteral("  ") << 5 << 3 << QStringLiteral("prompt:");
        QTest::newRow("seeds x steps") << QStringLiteral("The sampler") << 4096 << 5000
                                       << QStringLiteral(
                                              "seeds: about 2.0e7 model passes of work, over the limit of 1.0e7");
    }
    void badControlsAreRefusedInline()
    {
        QFETCH(QString, prompt);
        QFETCH(int, steps);
        QFETCH(int, seeds);
        QFETCH(QString, message);
        SeedSweepPage page;
        SeedSweepForm* form = page.sweepForm();
        form->modeBox()->setCurrentIndex(SeedSweepForm::RepliesMode);
        form->promptEdit()->setText(prompt);
        form->stepsBox()->setValue(steps);
        form->seedCountBox()->setValue(seeds);
        page.run();
        QVERIFY(!page.isRunning());
        QVERIFY2(page.errorLabel()->text().contains(message), qPrintable(page.errorLabel()->text()));
        page.show();  // the first show runs again: still refused, still shown
        QVERIFY(page.errorLabel()->isVisible());
        form->promptEdit()->setText(QStringLiteral("The chain"));
        form->stepsBox()->setValue(4);
        form->seedCountBox()->setValue(5);
        QVERIFY(runAndWait(page));  // still works after the error
        QVERIFY(!page.errorLabel()->isVisible());
        QCOMPARE(shownModel(page, QStringLiteral("-seeds"))->rowCount(), 5);
    }

    void fileWithStepsRunsEveryStep()
    {
        QTemporaryDir dir;
        QVERIFY(test::writeSmallNpy(QDir(dir.path()).filePath(QStringLiteral("logits.npy"))));
        const QJsonObject file{
            {QStringLiteral("logitlab"), 1},
            {QStringLiteral("experiment"), QStringLiteral("seed-sweep")},
            {QStringLiteral("name"), QStringLiteral("steps")},
            {QStringLiteral("distribution"), QJsonObject{{QStringLiteral("kind"), QStringLiteral("file")},
                                                         {QStringLiteral("path"), QStringLiteral("logits.npy")},
                                                         {QStringLiteral("steps"), QStringLiteral("all")}}},
            {QStringLiteral("chain"), QStringLiteral("temperature=1")},
            {QStringLiteral("seeds"), QJsonObject{{QStringLiteral("first"), 1}, {QStringLiteral("count"), 10}}},
            {QStringLiteral("draws"), 100}};
        const QString path = QDir(dir.path()).filePath(QStringLiteral("steps.json"));
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(file).toJson());
        out.close();
        SeedSweepPage page;
        SeedSweepForm* form = page.sweepForm();
        QCOMPARE(page.openFile(path), QString());
        QVERIFY(form->everyStepBox()->isChecked());
        QVERIFY(form->everyStep());
        page.resize(1280, 800);
        page.show();
        QSignalSpy ended(&page, &SeedSweepPage::runEnded);
        QVERIFY(ended.wait(120000));
        QVERIFY2(ended.first().first().toBool(), qPrintable(page.errorLabel()->text()));
        QVERIFY(page.stepsRun());
        QAbstractItemModelTester tester(page.results()->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(page.results()->model()->rowCount(), test::kSmallNpySteps);
        QCOMPARE(page.resultTable()->columns.front().name, QStringLiteral("step"));
        QVERIFY(page.findingsLabel()->text().contains(QStringLiteral("4 steps swept")));

        // One distribution of a multi-step file needs a row: refused next to the controls.
        form->everyStepBox()->setChecked(false);
        QVERIFY(!form->everyStep());
        QVERIFY(!runAndWait(page));
        QVERIFY(page.errorLabel()->isVisible());
        QVERIFY2(page.errorLabel()->text().contains(QLatin1String("distribution")),
                 qPrintable(page.errorLabel()->text()));
        form->everyStepBox()->setChecked(true);
        QVERIFY(runAndWait(page));  // and it keeps working
    }
};

QTEST_MAIN(TestSequenceSweepPage)
#include "tst_sequence_sweep_page.moc"
