// logitlab: the GUI. Without a display it runs the headless demo instead (see README).
#include "allocator_tuning.h"
#include "explorer_page.h"
#include "headless_demo.h"
#include "main_window.h"
#include "one_line_text.h"
#include "workbench.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QListWidget>
#include <QTextStream>
#include <QTimer>

using namespace logitlab::ui;

namespace {

bool hasDisplay()
{
    const QByteArray platform = qgetenv("QT_QPA_PLATFORM");
    if (platform.startsWith("offscreen") || platform.startsWith("minimal"))
        return false;
    return !platform.isEmpty() || qEnvironmentVariableIsSet("DISPLAY") || qEnvironmentVariableIsSet("WAYLAND_DISPLAY");
}

bool wantsOffscreen(int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg.startsWith("--screenshot") || arg.startsWith("--demo") || arg == "-h" || arg == "--help")
            return true;
    }
    return false;
}

}  // namespace

int main(int argc, char* argv[])
{
    logitlab::app::keepLargeAllocations();
    const bool display = hasDisplay();
    if (!display || wantsOffscreen(argc, argv))
        qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("LogitLab"));
    QApplication::setOrganizationName(QStringLiteral("LogitLab"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("LogitLab: how language models turn logits into text."));
    parser.addHelpOption();
    parser.addOptions({
        {QStringLiteral("screenshot"), QStringLiteral("Render the main window offscreen to FILE.png and exit."),
         QStringLiteral("file")},
        {QStringLiteral("demo"), QStringLiteral("Write the lesson's chart and table to --out and exit "
                                                "(the default when there is no display).")},
        {QStringLiteral("out"), QStringLiteral("Folder for --demo output (default ./out)."), QStringLiteral("dir"),
         QStringLiteral("out")},
        {QStringLiteral("page"), QStringLiteral("Open on this page (e.g. \"Seed sweep\")."), QStringLiteral("title")},
        {QStringLiteral("tab"), QStringLiteral("Explorer chart to show: probabilities, sweep, draws or compare."),
         QStringLiteral("name")},
        {QStringLiteral("vocabulary"), QStringLiteral("Start the Explorer on a Zipf(1.1) vocabulary of N tokens."),
         QStringLiteral("n")},
        {QStringLiteral("open"), QStringLiteral("Open an Explorer state (.json) or logits file on the Explorer."),
         QStringLiteral("file")},
        {QStringLiteral("size"), QStringLiteral("Window size, e.g. 1280x800 (the default)."), QStringLiteral("WxH"),
         QStringLiteral("1280x800")},
    });
    parser.process(app);
    QTextStream err(stderr);

    if (!display || parser.isSet(QStringLiteral("demo"))) {
        if (!display && !parser.isSet(QStringLiteral("screenshot")))
            err << "logitlab: no display found; running the headless demo instead of the window\n";
        if (!parser.isSet(QStringLiteral("screenshot")) || parser.isSet(QStringLiteral("demo"))) {
            const DemoResult demo = runHeadlessDemo(parser.value(QStringLiteral("out")));
            for (const QString& path : demo.written)
                QTextStream(stdout) << "wrote " << path << '\n';
            if (!demo.error.isEmpty()) {
                err << "logitlab: error: " << logitlab::app::oneLineText(demo.error) << '\n';
                return 1;
            }
            if (!parser.isSet(QStringLiteral("screenshot")))
                return 0;
        }
    }

    MainWindow window;
    ExplorerPage* explorer = buildWorkbench(window).explorer;
    if (parser.isSet(QStringLiteral("page"))) {
        const auto found = window.pageList()->findItems(parser.value(QStringLiteral("page")), Qt::MatchFixedString);
        if (found.isEmpty()) {
            err << "logitlab: error: --page: no page called '" << parser.value(QStringLiteral("page")) << "'\n";
            return 2;
        }
        window.pageList()->setCurrentItem(found.first());
    }
    const QStringList size = parser.value(QStringLiteral("size")).split(QLatin1Char('x'));
    const int width = size.value(0).toInt();
    const int height = size.value(1).toInt();
    if (size.size() != 2 || width < 200 || height < 200) {
        err << "logitlab: error: --size: expected WxH of at least 200x200, got '" << parser.value(QStringLiteral("size"))
            << "'\n";
        return 2;
    }
    window.resize(width, height);
    if (parser.isSet(QStringLiteral("open"))) {
        const QString problem = explorer->openExperiment(parser.value(QStringLiteral("open")));
        if (!problem.isEmpty()) {
            err << "logitlab: error: --open: " << logitlab::app::oneLineText(problem) << '\n';
            return 2;
        }
    }
    if (parser.isSet(QStringLiteral("vocabulary"))) {
        logitlab::engine::SyntheticSpec spec;
        spec.size = parser.value(QStringLiteral("vocabulary")).toInt();
        explorer->generateVocabulary(spec);
    }
    const QString tab = parser.value(QStringLiteral("tab"));
    if (tab == QLatin1String("sweep"))
        explorer->showChart(ExplorerPage::SweepTab);
    else if (tab == QLatin1String("draws"))
        explorer->showChart(ExplorerPage::DrawsTab);
    else if (tab == QLatin1String("compare"))
        explorer->showChart(ExplorerPage::CompareTab);

    if (parser.isSet(QStringLiteral("screenshot"))) {
        window.show();
        QApplication::processEvents();
        // Let the background load (--vocabulary), sweep and draws land so the picture shows them.
        QElapsedTimer waited;
        waited.start();
        while ((explorer->loading() || explorer->sweepRunning() || explorer->compareRunning() || explorer->drawsRunning())
               && waited.elapsed() < 10'000)
            QApplication::processEvents(QEventLoop::AllEvents, 50);
        QApplication::processEvents();
        const QString path = parser.value(QStringLiteral("screenshot"));
        if (!window.grab().save(path)) {
            err << "logitlab: error: " << path << ": could not write the screenshot\n";
            return 1;
        }
        QTextStream(stdout) << "wrote " << path << '\n';
        return 0;
    }
    window.show();
    return app.exec();
}
