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
#include "ui/models/result_table_model.h"
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
        page.resize(1280, 800);
        page.modeBox()->setCurrentIndex(int(SeedSweepPage::RepliesMode));
        QVERIFY(!page.replyModelFileEdit()->isHidden());
        page.replyModelFileEdit()->setText(model);
        page.promptEdit()->setText(QStringLiteral("hi!"));
        page.stepsBox()->setValue(5);
        page.seedCountBox()->setValue(6);
        const auto spec = page.specFromControls();
        QVERIFY2(spec, spec ? "" : spec.error().c_str());
        QCOMPARE(spec->modelFile, model);
        QVERIFY(runAndWait(page));
        const app::SequenceSweepOutcome direct = app::runSequenceSweep(spec.value(), QString(), {}, 1, {});
        QVERIFY(direct.status.finished());
        QCOMPARE(page.sequenceOutcome().replies, direct.replies);
        const QString file = dir.filePath(QStringLiteral("replies.json"));
        QCOMPARE(page.saveExperiment(file), QString());
        SeedSweepPage again;
        QCOMPARE(again.openFile(file), QString());
        QCOMPARE(again.replyModelFileEdit()->text(), model);
    }

    void openedFileRunsWholeReplies()
    {
        SeedSweepPage page;
        QCOMPARE(page.openFile(test::examplePath(QStringLiteral("seed-sweep-sequence.json"))), QString());
        QCOMPARE(page.modeBox()->currentIndex(), int(SeedSweepPage::RepliesMode));
        QCOMPARE(page.promptEdit()->text(), QStringLiteral("The sampler"));
        QCOMPARE(page.stepsBox()->value(), 8);
        page.seedCountBox()->setValue(30);
        page.resize(1280, 800);
        page.show();  // the first show runs what the controls say
        QSignalSpy ended(&page, &SeedSweepPage::runEnded);
        QVERIFY(ended.wait(120000));
        QVERIFY(ended.first().first().toBool());
        // The replies mode shows its own inputs and hides the draws' ones.
        QVERIFY(page.promptEdit()->isVisible());
        QVERIFY(page.stepsBox()->isVisible());
        QVERIFY(!page.drawsBox()->isVisible());
        QVERIFY(page.replyTabs()->isVisible());
        QVERIFY(!page.tabs()->isVisible());

        QAbstractItemModelTester replies(page.replyModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester seeds(page.replySeedModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester steps(page.firstDifferenceModel(),
                                       QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto& census = page.sequenceOutcome().census;
        QCOMPARE(page.replyModel()->rowCount(), int(census.replies.size()));
        QCOMPARE(page.replySeedModel()->rowCount(), 30);
        QCOMPARE(page.firstDifferenceModel()->rowCount(), 8);
        qint64 total = 0;
        const int seedsColumn = page.replyModel()->column(QStringLiteral("seeds"));
        for (int r = 0; r < page.replyModel()->rowCount(); ++r)
            total += page.replyModel()->data(page.replyModel()->index(r, seedsColumn)).toLongLong();
        QCOMPARE(total, 30);
        QVERIFY(page.replySummaryLabel()->text().contains(
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
        page.replyTabs()->setCurrentIndex(SeedSweepPage::RepliesTab);
        QCOMPARE(csvOf(page.provenance(), page.replyModel()),
                 rowsOf(app::resultTableCsv(result.provenance, *result.table(QString()))));
        QVERIFY(app::resultTableCsv(page.provenance(), page.replyModel()->table())
                    .contains(QLatin1String("\n# source: sequence")));
        QCOMPARE(page.resultTable()->suffix, QString());
        page.replyTabs()->setCurrentIndex(SeedSweepPage::ReplySeedsTab);
        QCOMPARE(page.resultTable()->suffix, QStringLiteral("-seeds"));
        QCOMPARE(csvOf(page.provenance(), page.replySeedModel()),
                 rowsOf(app::resultTableCsv(result.provenance, *result.table(QStringLiteral("-seeds")))));
        page.replyTabs()->setCurrentIndex(SeedSweepPage::FirstDifferenceTab);
        QCOMPARE(page.resultTable()->suffix, QStringLiteral("-first-difference"));
        QVERIFY(page.chart() != nullptr);
        QVERIFY(page.chart()->title().contains(QLatin1String("first differ")));

        // Back to draws: the draws' inputs again.
        page.modeBox()->setCurrentIndex(SeedSweepPage::DrawsMode);
        QVERIFY(page.drawsBox()->isVisible());
        QVERIFY(!page.promptEdit()->isVisible());
        QVERIFY(page.tabs()->isVisible());
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
        page.modeBox()->setCurrentIndex(SeedSweepPage::RepliesMode);
        page.promptEdit()->setText(prompt);
        page.stepsBox()->setValue(steps);
        page.seedCountBox()->setValue(seeds);
        page.run();
        QVERIFY(!page.isRunning());
        QVERIFY2(page.errorLabel()->text().contains(message), qPrintable(page.errorLabel()->text()));
        page.show();  // the first show runs again: still refused, still shown
        QVERIFY(page.errorLabel()->isVisible());
        page.promptEdit()->setText(QStringLiteral("The chain"));
        page.stepsBox()->setValue(4);
        page.seedCountBox()->setValue(5);
        QVERIFY(runAndWait(page));  // still works after the error
        QVERIFY(!page.errorLabel()->isVisible());
        QCOMPARE(page.replySeedModel()->rowCount(), 5);
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
        QCOMPARE(page.openFile(path), QString());
        QVERIFY(page.everyStepBox()->isChecked());
        QCOMPARE(page.view(), SeedSweepPage::StepsView);
        page.resize(1280, 800);
        page.show();
        QSignalSpy ended(&page, &SeedSweepPage::runEnded);
        QVERIFY(ended.wait(120000));
        QVERIFY2(ended.first().first().toBool(), qPrintable(page.errorLabel()->text()));
        QVERIFY(page.stepTabs()->isVisible());
        QAbstractItemModelTester tester(page.stepModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(page.stepModel()->rowCount(), test::kSmallNpySteps);
        QCOMPARE(page.resultTable()->columns.front().name, QStringLiteral("step"));
        QVERIFY(page.replySummaryLabel()->text().contains(QStringLiteral("4 steps swept")));

        // One distribution of a multi-step file needs a row: refused next to the controls.
        page.everyStepBox()->setChecked(false);
        QCOMPARE(page.view(), SeedSweepPage::DrawsView);
        QVERIFY(!runAndWait(page));
        QVERIFY(page.errorLabel()->isVisible());
        QVERIFY2(page.errorLabel()->text().contains(QLatin1String("distribution")),
                 qPrintable(page.errorLabel()->text()));
        page.everyStepBox()->setChecked(true);
        QVERIFY(runAndWait(page));  // and it keeps working
    }
};

QTEST_MAIN(TestSequenceSweepPage)
#include "tst_sequence_sweep_page.moc"
