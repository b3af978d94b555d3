// logitlab: the GUI. Without a display it runs the headless demo instead (see README).
#include "app/io/build_info.h"
#include "app/run/allocator_tuning.h"
#include "app/text/one_line_text.h"
#include "ui/pages/experiment_page.h"
#include "ui/pages/explorer_page.h"
#include "ui/window/gui_command_line.h"
#include "ui/window/headless_demo.h"
#include "ui/window/main_window.h"
#include "ui/window/presentation_window.h"
#include "ui/window/presentation_zoom.h"
#include "ui/window/workbench.h"

#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QListWidget>
#include <QMessageBox>
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
        if (arg.startsWith("--screenshot") || arg.startsWith("--demo") || arg == "-h" || arg == "--help" ||
            arg == "-v" || arg == "--version")
            return true;
    }
    return false;
}

}  // namespace

int main(int argc, char* argv[])
{
    logitlab::app::keepLargeAllocations();
    // The build writes the man page with this, before any display or platform plugin is needed.
    if (argc == 2 && QByteArray(argv[1]) == "--man") {
        QTextStream(stdout) << guiManPage();
        return 0;
    }
    const bool display = hasDisplay();
    if (!display || wantsOffscreen(argc, argv))
        qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("LogitLab"));
    QApplication::setOrganizationName(QStringLiteral("LogitLab"));
    QApplication::setApplicationVersion(logitlab::app::appVersion());
    QApplication::setDesktopFileName(QStringLiteral(LOGITLAB_APP_ID));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("LogitLab: how language models turn logits into text."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QString::fromLatin1(kGuiFileArgument), guiFileArgumentHelp(),
                                 QStringLiteral("[file]"));
    parser.addOptions(guiOptions());
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
    if (parser.isSet(QStringLiteral("screenshot")))  // nobody is there to answer a dialog
        explorer->answerWithoutDialogs([&err](const QString& said) {
            err << "logitlab: " << logitlab::app::oneLineText(said) << '\n';
            err.flush();
        });
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
        err << "logitlab: error: --size: expected WxH of at least 200x200, got '"
            << parser.value(QStringLiteral("size")) << "'\n";
        return 2;
    }
    window.resize(width, height);
    if (parser.isSet(QStringLiteral("zoom"))) {
        bool ok = false;
        const int zoom = parser.value(QStringLiteral("zoom")).toInt(&ok);
        if (!ok || zoom < PresentationZoom::kMinPercent || zoom > PresentationZoom::kMaxPercent) {
            err << "logitlab: error: --zoom: expected a percent from " << PresentationZoom::kMinPercent << " to "
                << PresentationZoom::kMaxPercent << ", got '" << parser.value(QStringLiteral("zoom")) << "'\n";
            return 2;
        }
        window.zoom()->setPercent(zoom, false);
    }
    if (parser.isSet(QStringLiteral("no-controls")))
        window.controlsAction()->setChecked(false);
    if (parser.isSet(QStringLiteral("open"))) {
        const QString problem = explorer->openExperiment(parser.value(QStringLiteral("open")));
        if (!problem.isEmpty()) {
            err << "logitlab: error: --open: " << logitlab::app::oneLineText(problem) << '\n';
            return 2;
        }
    }
    // `logitlab FILE` (and a double-click on a *.logitlab.json file): the page of the file's kind.
    if (!parser.positionalArguments().isEmpty()) {
        const QString problem = window.openExperimentFrom(parser.positionalArguments().first());
        if (!problem.isEmpty()) {
            err << "logitlab: error: " << logitlab::app::oneLineText(problem) << '\n';
            if (parser.isSet(QStringLiteral("screenshot")))
                return 2;
            // From the file manager there is no terminal: say it in the window, which stays open.
            QTimer::singleShot(0, &window, [&window, problem] {
                QMessageBox::warning(&window, QObject::tr("Open experiment"), logitlab::app::oneLineText(problem));
            });
        }
    }
    if (parser.isSet(QStringLiteral("model"))) {
        const QString problem = window.openModelFrom(parser.value(QStringLiteral("model")));
        if (!problem.isEmpty()) {
            err << "logitlab: error: --model: " << logitlab::app::oneLineText(problem) << '\n';
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
        while ((explorer->loading() || explorer->sweepRunning() || explorer->compareRunning() ||
                explorer->drawsRunning() || window.anyPageBusy()) &&
               waited.elapsed() < 10'000)
            QApplication::processEvents(QEventLoop::AllEvents, 50);
        // Layouts settle over a few passes (wrapping rows, a chart's share of its splitter).
        QElapsedTimer settle;
        settle.start();
        while (settle.elapsed() < 300)
            QApplication::processEvents(QEventLoop::AllEvents, 50);
        QWidget* shown = &window;
        if (parser.isSet(QStringLiteral("present"))) {
            window.present();
            shown = window.presentation();
            shown->showNormal();  // the picture at --size, not the offscreen screen's
            shown->resize(width, height);
            settle.restart();
            while (settle.elapsed() < 300)
                QApplication::processEvents(QEventLoop::AllEvents, 50);
        }
        const QString path = parser.value(QStringLiteral("screenshot"));
        if (!shown->grab().save(path)) {
            err << "logitlab: error: " << path << ": could not write the screenshot\n";
            return 1;
        }
        QTextStream(stdout) << "wrote " << path << '\n';
        return 0;
    }
    window.show();
    if (parser.isSet(QStringLiteral("present")))
        window.present();
    return app.exec();
}
