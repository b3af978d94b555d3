// Every page built on KindPage shows what its kind's run() returns, the same as `logitlab-cli
// run`: a page opens an example (or, for Batch invariance on a model, a file next to a tiny
// GGUF model the test writes), runs it, saves its file; the CLI runs that saved file, and each
// of the page's tables must equal the CLI's CSV byte for byte, and the page's charts must hold
// the same series, points for points, as the builders give for a fresh run of the saved file.
#include "app/io/experiment_file.h"
#include "app/kinds/batch_invariance_job.h"
#include "app/kinds/explorer_run.h"
#include "app/kinds/result_table.h"
#include "charts/experiment_charts.h"
#include "engine/sampler/lesson_examples.h"
#include "support/chart_series.h"
#include "support/example_files.h"
#include "support/test_support.h"
#include "support/tiny_gguf_model.h"
#include "ui/forms/batch_invariance_form.h"
#include "ui/forms/kind_form.h"
#include "ui/models/logits_table_model.h"
#include "ui/pages/batch_invariance_page.h"
#include "ui/pages/junk_risk_page.h"
#include "ui/pages/results_pane.h"
#include "ui/pages/seed_sweep_page.h"
#include "ui/pages/summation_page.h"
#include "ui/window/headless_demo.h"

#include <QAbstractSeries>
#include <QApplication>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QXYSeries>

#include <functional>
#include <memory>

using namespace logitlab;

namespace {

using PageFactory = std::function<ui::KindPage*()>;

using logitlab::test::readAll;
using logitlab::test::seriesText;

// Runs `page` on the experiment at `path`, saves it, runs the saved file with the CLI: each of
// the page's tables equals the CLI's CSV and each chart holds the builders' series.
void showsWhatTheKindRuns(ui::KindPage& pageRef, const QString& path)
{
    ui::KindPage* page = &pageRef;
    page->setRunOnFirstShow(false);
    QCOMPARE(page->openExperiment(path), QString());
    QSignalSpy ended(page, &ui::ExperimentPage::runEnded);
    page->run();
    QVERIFY(ended.wait(120000));
    QVERIFY2(ended.first().first().toBool(), qPrintable(page->errorLabel()->text()));
    const app::ExperimentResult* shown = page->results()->result();
    QVERIFY(shown);
    QCOMPARE(shown->kind, page->kind().id());

    QTemporaryDir dir;
    const QString saved = dir.filePath(QStringLiteral("page.json"));
    QCOMPARE(page->saveExperiment(saved), QString());
    const QString out = dir.filePath(QStringLiteral("out"));
    const test::CliRun cli =
        test::runCli({QStringLiteral("run"), saved, QStringLiteral("--out"), out, QStringLiteral("--formats"),
                      QStringLiteral("csv"), QStringLiteral("--threads"), QStringLiteral("2")});
    QVERIFY2(cli.exitCode == 0, cli.err.constData());

    // The tables: every one the page shows, as the CLI wrote it.
    QVERIFY(!shown->tables.empty());
    for (const app::ResultTable& table : shown->tables) {
        const QString file = QDir(out).filePath(shown->name + table.suffix + QStringLiteral(".csv"));
        QCOMPARE(QString::fromUtf8(readAll(file)), app::resultTableCsv(shown->provenance, table));
    }
    QCOMPARE(QDir(out).entryList(QDir::Files).size(), static_cast<qsizetype>(shown->tables.size()));

    // The charts: the page's against the builders' for a fresh run of the saved file.
    const auto root = app::readExperimentJson(saved);
    QVERIFY(root);
    app::RunContext context{saved, dir.path(), 2, {}};
    const app::ExperimentResult again = page->kind().run(root.value(), context);
    const ui::ExperimentCharts expected = ui::experimentCharts(again);
    const auto charts = page->results()->charts();
    QCOMPARE(charts.size(), expected.charts.size());
    QVERIFY(!charts.isEmpty());
    QVERIFY(!charts.front().second->series().isEmpty());  // the main chart draws something
    for (qsizetype i = 0; i < charts.size(); ++i) {
        QCOMPARE(charts[i].first, expected.charts[i].first);
        QCOMPARE(seriesText(charts[i].second), seriesText(expected.charts[i].second));
    }
}

}  // namespace

class TestKindPages : public QObject {
    Q_OBJECT

private slots:
    void pageShowsWhatTheKindRuns_data()
    {
        QTest::addColumn<PageFactory>("makePage");
        QTest::addColumn<QString>("example");
        QTest::newRow("summation order") << PageFactory([] { return new ui::SummationPage; })
                                         << QStringLiteral("summation-order-lesson.json");
        QTest::newRow("summation order, hard cases")
            << PageFactory([] { return new ui::SummationPage; }) << QStringLiteral("summation-order-hard-cases.json");
        // The junk-risk page marks its highlight N on the chart: none here, so the series compare.
        const PageFactory junkRisk = [] {
            auto* page = new ui::JunkRiskPage;
            page->highlightBox()->setValue(0);
            return page;
        };
        QTest::newRow("junk risk") << junkRisk << QStringLiteral("junk-risk-lesson.json");
        QTest::newRow("junk risk, q per token") << junkRisk << QStringLiteral("junk-risk-q.json");
        QTest::newRow("junk risk, along the built-in model's reply")
            << junkRisk << QStringLiteral("junk-risk-reply-builtin.json");
        const PageFactory seedSweep = [] { return new ui::SeedSweepPage; };
        QTest::newRow("seed sweep, the lesson's seed") << seedSweep << QStringLiteral("seed-sweep-lesson.json");
        QTest::newRow("seed sweep, whole replies") << seedSweep << QStringLiteral("seed-sweep-sequence.json");
        QTest::newRow("batch invariance, decode") << PageFactory([] { return new ui::BatchInvariancePage; })
                                                  << QStringLiteral("batch-invariance-decode.json");
        QTest::newRow("batch invariance, one step") << PageFactory([] { return new ui::BatchInvariancePage; })
                                                    << QStringLiteral("batch-invariance-one-step.json");
    }
    void pageShowsWhatTheKindRuns()
    {
        QFETCH(PageFactory, makePage);
        QFETCH(QString, example);
        std::unique_ptr<ui::KindPage> page(makePage());
        showsWhatTheKindRuns(*page, test::examplePath(example));
    }

    // File > Open model on each page of the one shape: a missing file is refused by name; a
    // page whose kind runs models takes the model into its experiment and runs it at once,
    // except Batch invariance, whose decode at every batch size waits for Run; Summation order
    // runs no models and says so.
    void openModelOnAKindPage_data()
    {
        QTest::addColumn<PageFactory>("makePage");
        QTest::addColumn<bool>("takesModels");
        QTest::addColumn<bool>("runsAtOnce");
        QTest::newRow("summation order") << PageFactory([] { return new ui::SummationPage; }) << false << false;
        QTest::newRow("junk risk") << PageFactory([] { return new ui::JunkRiskPage; }) << true << true;
        QTest::newRow("seed sweep") << PageFactory([] { return new ui::SeedSweepPage; }) << true << true;
        QTest::newRow("batch invariance") << PageFactory([] { return new ui::BatchInvariancePage; }) << true << false;
    }
    void openModelOnAKindPage()
    {
        QFETCH(PageFactory, makePage);
        QFETCH(bool, takesModels);
        QFETCH(bool, runsAtOnce);
        std::unique_ptr<ui::KindPage> page(makePage());
        page->setRunOnFirstShow(false);
        QTemporaryDir dir;
        const QString missing = dir.filePath(QStringLiteral("missing.gguf"));
        QCOMPARE(page->openModel(missing), missing + QStringLiteral(": no such file"));
        QVERIFY(!page->isRunning());
        const QString model = dir.filePath(QStringLiteral("tiny.gguf"));
        QVERIFY(test::tinyLlama(engine::gguf::GgmlType::Q8_0, true, 64).writeFile(model.toStdString()));
        QSignalSpy ended(page.get(), &ui::ExperimentPage::runEnded);
        const QString said = page->openModel(model);
        if (!takesModels) {
            QVERIFY2(said.contains(QStringLiteral("runs no models")), qPrintable(said));
            QVERIFY(!page->isRunning());
            return;
        }
        QCOMPARE(said, QString());
        const auto json = page->form()->experimentJson();
        QVERIFY2(json, json ? "" : json.error().c_str());
        QVERIFY(QJsonDocument(json.value()).toJson().contains(model.toUtf8()));
        QCOMPARE(page->isRunning(), runsAtOnce);
        if (runsAtOnce) {
            QVERIFY(ended.wait(120000));
            QVERIFY2(ended.first().first().toBool(), qPrintable(page->errorLabel()->text()));
        }
    }

    // The model-decode study on a tiny GGUF model the test writes (Q8_0: the batched kernel's
    // dequantised rows change the logits' bits), through the page and the CLI alike.
    void batchInvarianceOnAModel()
    {
        QTemporaryDir dir;
        const QString model = dir.filePath(QStringLiteral("tiny.gguf"));
        QVERIFY(test::tinyModel(engine::transformer::Architecture::Llama, engine::gguf::GgmlType::Q8_0)
                    .writeFile(model.toStdString()));
        ui::BatchInvariancePage page;
        page.setRunOnFirstShow(false);
        // File > Open model on this page chooses the study and the model.
        QCOMPARE(page.openModel(model), QString());
        page.batchForm()->promptEdit()->setText(QStringLiteral("hi!"));
        // The study's own rows are shown, the toy model's are not.
        QVERIFY(page.batchForm()->modelFileEdit()->isVisibleTo(&page));
        QVERIFY(page.batchForm()->promptEdit()->isVisibleTo(&page));
        QVERIFY(!page.batchForm()->runsBox()->isVisibleTo(&page));
        const auto json = page.form()->experimentJson();
        QVERIFY2(json, json ? "" : json.error().c_str());
        QCOMPARE(json->value(QStringLiteral("study")).toString(), QStringLiteral("model-decode"));
        QCOMPARE(json->value(QStringLiteral("model-file")).toString(), model);
        const QString file = dir.filePath(QStringLiteral("model-decode.json"));
        QJsonObject root = json.value();
        root.insert(QStringLiteral("steps"), 6);
        root.insert(QStringLiteral("max_batch"), 8);
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(root).toJson());
        out.close();
        showsWhatTheKindRuns(page, file);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(page.batchForm()->modelFileEdit()->isVisibleTo(&page));  // still, once the file is open
        const app::BatchInvarianceOutcome* shown = page.outcome();
        QVERIFY(shown);
        QCOMPARE(shown->model.rows.size(), std::size_t{8});
        QCOMPARE(shown->model.rows.front().maxDifference, 0.0);  // batch 1: the invariant arithmetic
        QVERIFY(shown->model.rows.back().maxDifference > 0.0);   // batch 8: eigen-gemm, dequantised rows
        QVERIFY(page.findingsLabel()->text().contains(QStringLiteral("greedy reply")));
    }

    // The start is the decode example; switched to one step (and back), the experiment's name,
    // which heads its summary and names its files, says the study the controls describe.
    void studySwitchRenamesTheExample()
    {
        ui::BatchInvariancePage page;
        page.setRunOnFirstShow(false);
        auto* study = page.findChild<QComboBox*>(QStringLiteral("study"));
        QVERIFY(study);
        const auto name = [&page] {
            const auto json = page.form()->experimentJson();
            return json ? json->value(QStringLiteral("name")).toString() : QString::fromStdString(json.error());
        };
        QCOMPARE(name(), QStringLiteral("batch-invariance-decode"));
        study->setCurrentIndex(0);
        QCOMPARE(name(), QStringLiteral("batch-invariance-one-step"));
        study->setCurrentIndex(1);
        QCOMPARE(name(), QStringLiteral("batch-invariance-decode"));
        // A name of the user's own stays theirs.
        QCOMPARE(page.openExperiment(test::examplePath(QStringLiteral("batch-invariance-trace-file.json"))), QString());
        study->setCurrentIndex(0);
        QCOMPARE(name(), QStringLiteral("batch-invariance-trace-file"));
    }

    // The Explorer's editable table shows the CSV's token columns, declared once: the same
    // titles and meanings in the same order (the id is the row header).
    void explorerTableHeadsAreTheCsvColumns()
    {
        ui::LogitsTableModel model;
        model.setDistribution(engine::lessonExample());
        const app::ResultTable csv =
            app::explorerTokenTable(model.table(), std::make_shared<const engine::SamplerAnalysis>(model.analysis()));
        QCOMPARE(csv.columns.size(), static_cast<std::size_t>(model.columnCount()) + 1);
        QCOMPARE(csv.columns.front().name, QStringLiteral("token_id"));
        QCOMPARE(model.headerData(3, Qt::Vertical).toInt(), 3);
        for (int c = 0; c < model.columnCount(); ++c) {
            const app::ResultColumn& column = csv.columns[static_cast<std::size_t>(c) + 1];
            QCOMPARE(model.headerData(c, Qt::Horizontal).toString(), column.title);
            const QString tip = model.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString();
            QVERIFY2(tip.startsWith(column.toolTip), qPrintable(tip));
        }
    }

    // The headless demo writes the Explorer's table through the one CSV writer: the lesson's
    // state run by the CLI gives the same columns and rows (the provenance lines name their
    // source, the page or the file, so they are left out of the comparison).
    void demoTableIsTheCliTable()
    {
        QTemporaryDir dir;
        const ui::DemoResult demo = ui::runHeadlessDemo(dir.filePath(QStringLiteral("demo")));
        QCOMPARE(demo.error, QString());
        const QString out = dir.filePath(QStringLiteral("cli"));
        const test::CliRun cli =
            test::runCli({QStringLiteral("run"), test::examplePath(QStringLiteral("explorer-lesson.json")),
                          QStringLiteral("--out"), out, QStringLiteral("--formats"), QStringLiteral("csv")});
        QVERIFY2(cli.exitCode == 0, cli.err.constData());
        const auto rows = [](const QString& path) {
            QStringList lines = QString::fromUtf8(readAll(path)).split(QLatin1Char('\n'));
            lines.removeIf([](const QString& line) { return line.startsWith(QLatin1Char('#')); });
            return lines;
        };
        const QStringList demoRows = rows(dir.filePath(QStringLiteral("demo/lesson-probabilities.csv")));
        QVERIFY(demoRows.size() > 5);
        QVERIFY2(demoRows.first().startsWith(QStringLiteral("token_id,token,logit,p,")), qPrintable(demoRows.first()));
        QCOMPARE(demoRows, rows(QDir(out).filePath(QStringLiteral("explorer-lesson.csv"))));
    }
};

QTEST_MAIN(TestKindPages)
#include "tst_kind_pages.moc"
