// File > Export table writes exactly what `logitlab-cli run` writes for the same file: for
// every kind, the page opens the example, runs it, exports its table through the main window,
// and the file's column names and data rows equal the CLI's CSV for that table, with no empty
// cell where the kind always has a value. (The `#` provenance lines may differ: the page names
// its controls, the CLI the file.)
#include "support/example_files.h"
#include "support/experiment_page_run.h"
#include "support/test_support.h"
#include "ui/pages/experiment_page.h"
#include "ui/pages/explorer_page.h"
#include "ui/pages/junk_risk_page.h"
#include "ui/pages/kind_page.h"
#include "ui/pages/results_pane.h"
#include "ui/pages/seed_sweep_page.h"
#include "ui/window/main_window.h"
#include "ui/window/workbench.h"

#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace logitlab;

namespace {

// The CSV without its `#` provenance lines: the header row and the data rows.
QStringList dataLines(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {QStringLiteral("cannot read ") + path};
    QStringList lines;
    for (const QString& line : QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        if (!line.startsWith(QLatin1Char('#')))
            lines << line;
    return lines;
}

bool runCli(const QString& file, const QString& out)
{
    QProcess process;
    process.start(test::binaryPath(QStringLiteral("logitlab-cli")),
                  {QStringLiteral("run"), file, QStringLiteral("--out"), out, QStringLiteral("--formats"),
                   QStringLiteral("csv"), QStringLiteral("--threads"), QStringLiteral("2")});
    return process.waitForFinished(120000) && process.exitCode() == 0;
}

}  // namespace

class TestGuiExport : public QObject {
    Q_OBJECT

private slots:
    void exportEqualsCli_data()
    {
        QTest::addColumn<QString>("page");    // the page's id
        QTest::addColumn<QString>("file");    // the example
        QTest::addColumn<bool>("pick");       // the table is picked on the page's tab bar (else: as it opens)
        QTest::addColumn<QString>("suffix");  // the CLI's file for that table
        QTest::addColumn<int>("rows");
        QTest::newRow("junk risk") << QStringLiteral("junk-risk") << QStringLiteral("junk-risk-lesson.json") << false
                                   << QString() << 24;
        QTest::newRow("seed sweep, per token")
            << QStringLiteral("seed-sweep") << QStringLiteral("seed-sweep-200-seeds.json") << false << QString() << 3;
        QTest::newRow("seed sweep, per seed")
            << QStringLiteral("seed-sweep") << QStringLiteral("seed-sweep-200-seeds.json") << true
            << QStringLiteral("-seeds") << 200;
        QTest::newRow("explorer") << QStringLiteral("explorer") << QStringLiteral("explorer-llama-xtc.json") << false
                                  << QString() << 5;
        QTest::newRow("loop") << QStringLiteral("loop") << QStringLiteral("loop-mirostat-penalties.json") << false
                              << QString() << 80;
        // Every order (numpy-sum included) and the lowest and highest shuffle.
        QTest::newRow("summation order") << QStringLiteral("summation-order")
                                         << QStringLiteral("summation-order-lesson.json") << false << QString()
                                         << 12 + 2;
        QTest::newRow("batch invariance, runs")
            << QStringLiteral("batch-invariance") << QStringLiteral("batch-invariance-trace-file.json") << false
            << QString() << 64;
    }
    void exportEqualsCli()
    {
        QFETCH(QString, page);
        QFETCH(QString, file);
        QFETCH(bool, pick);
        QFETCH(QString, suffix);
        QFETCH(int, rows);
        const QString path = test::examplePath(file);
        QTemporaryDir dir;
        QVERIFY(runCli(path, dir.filePath(QStringLiteral("cli"))));
        const QString stem = QFileInfo(file).completeBaseName();
        const QStringList cli = dataLines(dir.filePath(QStringLiteral("cli/%1%2.csv").arg(stem, suffix)));

        ui::MainWindow window;
        const ui::Workbench workbench = ui::buildWorkbench(window);
        ui::Page* shown = window.page(page);
        QVERIFY(shown);
        window.showPage(shown);
        QCOMPARE(window.openExperimentFrom(path), QString());
        if (auto* experiment = qobject_cast<ui::ExperimentPage*>(shown)) {
            QVERIFY(test::runAndWait(*experiment));
        } else {
            QTRY_VERIFY_WITH_TIMEOUT(!workbench.explorer->loading(), 30000);
        }
        if (pick)
            QVERIFY(qobject_cast<ui::KindPage*>(shown)->results()->showTableOf(suffix));
        const QString exported = dir.filePath(QStringLiteral("gui.csv"));
        QCOMPARE(window.exportTableTo(exported), QString());
        const QStringList gui = dataLines(exported);

        QCOMPARE(gui.size(), rows + 1);
        QCOMPARE(gui.first(), cli.first());  // the column names
        QCOMPARE(gui, cli);                  // and every data row
        // No blank cells: every column of these tables has a value in every row.
        for (const QString& line : gui.mid(1))
            QVERIFY2(!line.contains(QStringLiteral(",,")) && !line.endsWith(QLatin1Char(',')), qPrintable(line));
    }
};

QTEST_MAIN(TestGuiExport)
#include "tst_gui_export.moc"
