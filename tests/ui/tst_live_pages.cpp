// The two pages that work live (the Loop steps on the UI thread, the Explorer recomputes as its
// table and chain are edited) show what their kinds run, as the pages on KindPage do
// (tst_kind_pages): a page opens an example and shows its results, saves its file, and the
// CLI runs that saved file; the page's table equals the CLI's CSV row for row, and each of the
// page's charts holds the series the kind's chart builders give for a fresh run of the file.
#include "app/io/experiment_file.h"
#include "app/kinds/experiment_kind.h"
#include "app/kinds/result_table.h"
#include "charts/compare_chart.h"
#include "charts/draw_chart.h"
#include "charts/experiment_charts.h"
#include "charts/probability_chart.h"
#include "charts/sweep_chart.h"
#include "support/chart_series.h"
#include "support/example_files.h"
#include "support/test_support.h"
#include "ui/pages/explorer_page.h"
#include "ui/pages/loop_page.h"

#include <QChart>
#include <QDir>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace logitlab;
using test::seriesText;

namespace {

// CSV rows without the provenance (the page names its source, the CLI the file).
QStringList rowsOf(const QString& csv)
{
    QStringList lines = csv.split(QLatin1Char('\n'));
    lines.removeIf([](const QString& line) { return line.startsWith(QLatin1Char('#')); });
    return lines;
}

// Saves `page`'s experiment and runs the saved file with the CLI and in process: the page's
// table equals the CLI's CSV row for row, and `shown`, the page's charts in the order the kind's
// builders make them, hold the builders' series for the fresh run.
void showsWhatTheCliRuns(ui::Page& page, const QList<QChart*>& shown)
{
    QTemporaryDir dir;
    const QString saved = dir.filePath(QStringLiteral("page.json"));
    QCOMPARE(page.saveExperiment(saved), QString());
    const QString out = dir.filePath(QStringLiteral("out"));
    const test::CliRun cli =
        test::runCli({QStringLiteral("run"), saved, QStringLiteral("--out"), out, QStringLiteral("--formats"),
                      QStringLiteral("csv"), QStringLiteral("--threads"), QStringLiteral("2")});
    QVERIFY2(cli.exitCode == 0, cli.err.constData());
    const auto root = app::readExperimentJson(saved);
    QVERIFY(root);
    const auto kind = app::kindOfFile(root.value(), saved);
    QVERIFY(kind);
    const app::ExperimentResult again = kind.value()->run(root.value(), app::RunContext{saved, dir.path(), 2, {}});
    QVERIFY(again.status.finished());

    const QString file = QDir(out).filePath(again.name + QStringLiteral(".csv"));
    QCOMPARE(rowsOf(app::resultTableCsv(page.provenance(), *page.resultTable())),
             rowsOf(QString::fromUtf8(test::readAll(file))));
    const ui::ExperimentCharts expected = ui::experimentCharts(again);
    QCOMPARE(expected.charts.size(), shown.size());
    for (qsizetype i = 0; i < shown.size(); ++i)
        QVERIFY2(seriesText(shown[i]) == seriesText(expected.charts[i].second),
                 qPrintable(expected.charts[i].first + QStringLiteral(": ") +
                            seriesText(shown[i]).join(QLatin1Char('|')) + QStringLiteral(" vs ") +
                            seriesText(expected.charts[i].second).join(QLatin1Char('|'))));
}

}  // namespace

class TestLivePages : public QObject {
    Q_OBJECT

private slots:
    void loopShowsWhatTheKindRuns_data()
    {
        QTest::addColumn<QString>("example");
        QTest::newRow("greedy with a forced branch") << QStringLiteral("loop-greedy-branch.json");
        QTest::newRow("mirostat and penalties") << QStringLiteral("loop-mirostat-penalties.json");
    }
    void loopShowsWhatTheKindRuns()
    {
        QFETCH(QString, example);
        ui::LoopPage page;
        QCOMPARE(page.openExperiment(test::examplePath(example)), QString());
        QSignalSpy ended(&page, &ui::ExperimentPage::runEnded);
        page.run();  // Run N: the file's steps and its branch
        QVERIFY(ended.wait(120000));
        QVERIFY2(ended.first().first().toBool(), qPrintable(page.errorLabel()->text()));

        // The steps chart, then the shown step: the last once a run lands, as the CLI's "-last-step".
        showsWhatTheCliRuns(page, {page.stepsChart(), page.chart()});
    }

    void explorerShowsWhatTheKindRuns_data()
    {
        QTest::addColumn<QString>("example");
        QTest::newRow("the lesson") << QStringLiteral("explorer-lesson.json");
        QTest::newRow("llama.cpp with XTC") << QStringLiteral("explorer-llama-xtc.json");
    }
    void explorerShowsWhatTheKindRuns()
    {
        QFETCH(QString, example);
        ui::ExplorerPage page;
        QCOMPARE(page.openExperiment(test::examplePath(example)), QString());
        QVERIFY(QTest::qWaitFor([&page] { return !page.loading(); }, 30000));
        // The draws and the presets' comparison run once their charts are shown.
        page.showChart(ui::ExplorerPage::DrawsTab);
        QVERIFY(QTest::qWaitFor([&page] { return !page.drawsRunning() && page.lastDraws().draws > 0; }, 60000));
        page.showChart(ui::ExplorerPage::CompareTab);
        QVERIFY(QTest::qWaitFor(
            [&page] {
                return !page.loading() && !page.sweepRunning() && !page.drawsRunning() && !page.compareRunning() &&
                       page.lastDraws().draws > 0;
            },
            60000));

        showsWhatTheCliRuns(page, {page.probabilityChart()->chart(), page.sweepChart()->chart(),
                                   page.drawChart()->chart(), page.compareChart()->chart()});
    }
};

QTEST_MAIN(TestLivePages)
#include "tst_live_pages.moc"
