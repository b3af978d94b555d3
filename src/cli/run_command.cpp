#include "cli/run_command.h"

#include "app/io/experiment_file.h"
#include "app/io/output_set.h"
#include "app/io/save_text.h"
#include "app/kinds/experiment_kind.h"
#include "app/run/experiment_runner.h"
#include "charts/chart_data.h"
#include "charts/chart_export.h"
#include "charts/chart_scripts.h"
#include "charts/experiment_charts.h"
#include "cli/cli_application.h"
#include "cli/interrupt_guard.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QSize>

#include <chrono>
#include <cstdio>
#include <unistd.h>

namespace logitlab::cli {

namespace {

// py and tex: each chart's data as <name><chart>-data.csv with a matplotlib script and a pgfplots
// file that re-plot it (charts/chart_scripts.h).
const QStringList kFormats{QStringLiteral("csv"), QStringLiteral("png"), QStringLiteral("svg"),
                           QStringLiteral("pdf"), QStringLiteral("py"),  QStringLiteral("tex")};

QStringList parseFormats(const QString& text)
{
    QStringList formats;
    for (const QString& raw : text.toLower().split(QLatin1Char(','))) {
        const QString f = raw.trimmed();
        if (!kFormats.contains(f))
            throw UsageError{
                QStringLiteral("--formats: unknown format '%1' (known: %2)").arg(f, kFormats.join(QLatin1Char(',')))};
        if (!formats.contains(f))
            formats << f;
    }
    return formats;
}

// The file's JSON, with the --set overrides applied in order (each kind then parses it strictly).
QJsonObject readRoot(const QString& path, const QStringList& assignments)
{
    auto parsed = app::readExperimentJson(path);
    if (!parsed)
        throw UsageError{QString::fromStdString(parsed.error())};
    QJsonObject root = parsed.value();
    for (const QString& assignment : assignments) {
        auto changed = app::applyOverride(root, assignment);
        if (!changed)
            throw UsageError{QString::fromStdString(changed.error())};
        root = changed.value();
    }
    return root;
}

// The chart options from --size, --dpi and --font-scale. Without --size and --font-scale the
// charts keep today's 960x600 logical pixels and on-screen fonts.
ui::ChartExportOptions chartOptions(const QCommandLineParser& parser)
{
    const bool physical = parser.isSet(QStringLiteral("size")) || parser.isSet(QStringLiteral("font-scale"));
    ui::ChartExportOptions options = ui::ChartExportOptions::fromScreenPixels(QSize(960, 600), 300);
    options.screenFonts = !physical;
    if (parser.isSet(QStringLiteral("size"))) {
        const QString text = parser.value(QStringLiteral("size"));
        const auto parsed = ui::parseChartSize(text, options);
        if (!parsed)
            throw UsageError{QStringLiteral("--size: '%1' is not WIDTHxHEIGHT with cm or in, e.g. 8.5x6cm").arg(text)};
        options = *parsed;
    }
    if (parser.isSet(QStringLiteral("dpi")))
        options.dpi = static_cast<int>(integerOption(parser, QStringLiteral("dpi"), ui::ChartExportOptions::kMinDpi,
                                                     ui::ChartExportOptions::kMaxDpi));
    if (parser.isSet(QStringLiteral("font-scale")))
        options.fontScale = doubleOption(parser, QStringLiteral("font-scale"));
    options.title = parser.isSet(QStringLiteral("title"));
    if (const ui::ChartOptionProblem problem = ui::checkChartExportOptions(options); !problem.field.isEmpty())
        throw UsageError{QStringLiteral("--%1: %2")
                             .arg(problem.field == QLatin1String("width") || problem.field == QLatin1String("height")
                                      ? QStringLiteral("size")
                                      : problem.field,
                                  problem.message)};
    return options;
}

// "\r" progress on a terminal, at most every 100 ms; nothing when stderr is a file or pipe.
class ProgressLine {
public:
    ProgressLine(QTextStream& err, QString name) : m_err(err), m_name(std::move(name)), m_enabled(isatty(STDERR_FILENO))
    {
        m_timer.start();
    }
    void started(std::size_t total) { m_total = total; }
    void update(std::size_t done)
    {
        if (!m_enabled || (m_timer.elapsed() < 100 && done < m_total))
            return;
        m_timer.restart();
        const int percent = m_total ? static_cast<int>(100 * done / m_total) : 100;
        m_err << QStringLiteral("\r%1: %2% (%3/%4 work items)").arg(m_name).arg(percent).arg(done).arg(m_total);
        m_err.flush();
        m_shown = true;
    }
    void finish()
    {
        if (m_shown)
            m_err << '\n';
        m_err.flush();
    }

private:
    QTextStream& m_err;
    QString m_name;
    bool m_enabled;
    bool m_shown = false;
    std::size_t m_total = 0;
    QElapsedTimer m_timer;
};

}  // namespace

CommandSpec runCommand()
{
    return {QStringLiteral("run"),
            QStringLiteral("run an experiment file headless: CSV and charts"),
            QStringLiteral("Run an experiment file, or a state file the Explorer saved, headless. Writes each result\n"
                           "table as DIR/<name><suffix>.csv (provenance in '#' lines) and each chart as\n"
                           "DIR/<name><suffix>.<format>. The same file and seed give the same CSV bytes on any\n"
                           "thread count. Nothing is written when the file or an option is wrong (exit code 2). The\n"
                           "files appear together or not at all: a failed write or Ctrl-C (exit 130; SIGTERM 143)\n"
                           "leaves DIR as it was.\n"
                           "Kinds: %1.")
                .arg(app::experimentKindIds().join(QStringLiteral(", "))),
            QStringLiteral("FILE.json"),
            QStringLiteral("The experiment file or Explorer state file (docs/experiments.md)."),
            {
                {QStringLiteral("out"), QStringLiteral("Folder to write into (created if needed). Required."),
                 QStringLiteral("DIR")},
                {QStringLiteral("threads"), QStringLiteral("Worker threads (1..1024). Default: all cores."),
                 QStringLiteral("N")},
                {QStringLiteral("set"),
                 QStringLiteral("Override a key of the file, e.g. replies=1000 or settings.1.top-p=0.95. Repeatable."),
                 QStringLiteral("key=value")},
                {QStringLiteral("formats"),
                 QStringLiteral("Comma list of csv, png, svg, pdf, py (a matplotlib script), tex (pgfplots); py and "
                                "tex also write each chart's data as NAME-CHART-data.csv. Default: %1.")
                     .arg(QString::fromLatin1(kDefaultFormats)),
                 QStringLiteral("list"), QString::fromLatin1(kDefaultFormats)},
                {QStringLiteral("size"),
                 QStringLiteral("Chart size with a unit, e.g. 8.5x6cm or 3.3x2.4in; fonts are then set in points "
                                "for that page. Default: 960x600 pixels at 96 per inch with the screen fonts."),
                 QStringLiteral("WxH")},
                {QStringLiteral("dpi"), QStringLiteral("PNG resolution (96..600). Default: 300."), QStringLiteral("N")},
                {QStringLiteral("font-scale"),
                 QStringLiteral("Chart text size factor (0.5..3); 1 keeps an 8.5 cm figure's text at 7-9 pt."),
                 QStringLiteral("X")},
                {QStringLiteral("title"),
                 QStringLiteral("Keep each chart's title on the figure. Default: no title (the caption belongs to the "
                                "paper).")},
            },
            runRun};
}

int runRun(CommandContext& context)
{
    QCommandLineParser parser;
    declareCommand(parser, runCommand());
    const QCommandLineOption help = helpOption();
    parser.addOption(help);
    if (!parser.parse(context.arguments))
        throw UsageError{parser.errorText()};
    if (parser.isSet(help)) {
        context.out << parser.helpText();
        return 0;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        throw UsageError{positional.isEmpty() ? QStringLiteral("missing the experiment file (FILE.json)")
                                              : QStringLiteral("unexpected argument '%1'").arg(positional[1])};
    if (!parser.isSet(QStringLiteral("out")) || parser.value(QStringLiteral("out")).isEmpty())
        throw UsageError{QStringLiteral("--out: missing the output folder")};
    const QString outDir = parser.value(QStringLiteral("out"));
    if (QFileInfo(outDir).exists() && !QFileInfo(outDir).isDir())
        throw UsageError{QStringLiteral("--out: %1 exists and is not a folder").arg(outDir)};
    // From here a signal cancels the run; the output is staged, and the staging removed again on
    // any failure, so DIR keeps its earlier set. Preparing now says "cannot create" before the
    // computation rather than after it.
    InterruptGuard interrupt;
    app::OutputSet output(outDir);
    if (const QString problem = output.prepare(); !problem.isEmpty())
        throw UsageError{QStringLiteral("--out: ") + problem};
    // Chart layout and rendering poll nothing: a signal then ends the process from the guard's
    // thread within the grace period, removing what this run staged and created (copies of the
    // paths, so nothing the main thread uses is touched).
    interrupt.abandonAfter(std::chrono::milliseconds(600),
                           [staging = output.stagingFolder(), created = output.createdFolders(), &interrupt] {
                               QDir(staging).removeRecursively();
                               for (auto it = created.crbegin(); it != created.crend(); ++it)
                                   QDir().rmdir(*it);  // only when empty: never what another program put there
                               std::fprintf(stderr, "\nlogitlab-cli run: interrupted by %s; nothing written\n",
                                            qPrintable(interrupt.signalName()));
                           });
    const int threads = parser.isSet(QStringLiteral("threads"))
                            ? static_cast<int>(integerOption(parser, QStringLiteral("threads"), 1, 1024))
                            : app::defaultThreadCount();
    const QStringList formats = parseFormats(parser.value(QStringLiteral("formats")));
    const ui::ChartExportOptions chartExport = chartOptions(parser);
    const bool wantsCharts = formats.size() > (formats.contains(QStringLiteral("csv")) ? 1 : 0);
    if (wantsCharts && !qobject_cast<QApplication*>(QCoreApplication::instance()))
        throw UsageError{
            QStringLiteral("--formats: charts need the widgets application")};  // a programming error in main

    const QString& path = positional[0];
    const QJsonObject root = readRoot(path, parser.values(QStringLiteral("set")));
    const auto kind = app::kindOfFile(root, path);
    if (!kind)
        throw UsageError{QString::fromStdString(kind.error())};

    ProgressLine progress(context.err, QFileInfo(path).completeBaseName());
    app::RunContext run;
    run.source = path;
    run.baseDir = QFileInfo(path).absolutePath();
    run.threads = threads;
    run.control.started = [&progress](std::size_t total) { progress.started(total); };
    run.control.progress = [&progress](std::size_t done) { progress.update(done); };
    run.control.isCancelled = [&interrupt] { return interrupt.interrupted(); };
    const app::ExperimentResult outputs = kind.value()->run(root, run);
    progress.finish();
    const auto interrupted = [&] {
        interrupt.finishing();
        context.err << "logitlab-cli run: interrupted by " << interrupt.signalName() << "; nothing written\n";
        return interrupt.exitCode();
    };
    if (interrupt.interrupted())
        return interrupted();
    if (outputs.status.state == app::RunStatus::State::Failed)
        throw UsageError{outputs.status.message};  // bad input found while setting up: nothing written
    if (!outputs.status.finished()) {
        context.err << "logitlab-cli run: cancelled; nothing written\n";
        return 1;
    }
    const ui::ExperimentCharts charts = wantsCharts ? ui::experimentCharts(outputs) : ui::ExperimentCharts{};

    // Every file goes to the staging folder first; a failure names the file where it belongs.
    const auto check = [&](const QString& error) {
        if (!error.isEmpty())
            throw UsageError{QString(error).replace(output.stagingFolder(), QDir::cleanPath(outDir))};
    };
    if (formats.contains(QStringLiteral("csv"))) {
        for (const app::ResultTable& table : outputs.tables)
            check(app::saveText(output.stage(outputs.name + table.suffix + QStringLiteral(".csv")),
                                app::resultTableCsv(outputs.provenance, table)));
    }
    const bool scripts = formats.contains(QStringLiteral("py")) || formats.contains(QStringLiteral("tex"));
    for (const auto& [suffix, chart] : charts.charts) {
        for (const QString& name : formats) {
            const auto format = ui::chartFormatFromName(name);
            if (!format)
                continue;  // csv, py, tex
            check(ui::exportChart(chart, output.stage(outputs.name + suffix + QLatin1Char('.') + name), *format,
                                  outputs.provenance, chartExport));
        }
        if (!scripts)
            continue;
        const ui::ChartData data = ui::chartData(chart);
        const QString base = outputs.name + suffix;
        const QString csvName = base + QStringLiteral("-data.csv");
        check(app::saveText(output.stage(csvName), ui::chartDataCsv(data, outputs.provenance)));
        if (formats.contains(QStringLiteral("py")))
            check(app::saveText(output.stage(base + QStringLiteral(".py")),
                                ui::matplotlibScript(data, csvName, chartExport, outputs.provenance)));
        if (formats.contains(QStringLiteral("tex")))
            check(app::saveText(output.stage(base + QStringLiteral(".tex")),
                                ui::pgfplotsFile(data, csvName, chartExport, outputs.provenance)));
    }
    if (interrupt.interrupted())
        return interrupted();
    // From here the run finishes by itself: a signal now waits for the commit.
    interrupt.finishing();
    check(output.commit());
    for (const QString& f : output.paths())
        context.out << f << '\n';
    context.err << outputs.summary << '\n';
    return 0;
}

}  // namespace logitlab::cli
