// The Loop page's UI thread while the loop runs near its limit of 4,096 steps (issue 13: "the
// page never blocks the UI thread for more than 50 ms while running"). An event-loop latency
// probe: a 1 ms QTimer on the UI thread records the longest gap between its ticks while the page,
// offscreen, Plays 4,096 steps at 0 ms per pass (as fast as the page steps), runs N = 4,096 on a
// worker (Run N) and branches at step 0 (the branch catches up to 4,096 steps in slices). Each
// phase prints its longest stall; docs/benchmarks.md records the figures. Not a timed test.
// With an argument PREFIX it also saves the page as PREFIX-run.png after Run N and
// PREFIX-branch.png after the branch (1280 x 800), to look at what the phases left on screen.
#include "ui/pages/loop_page.h"

#include <QApplication>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QPixmap>
#include <QSpinBox>
#include <QTimer>

#include <cstdio>
#include <functional>

using namespace logitlab;

namespace {

// Runs `start`, then spins the event loop until `done`, returning the longest gap (ms) between
// two ticks of a 1 ms timer.
double longestStall(const std::function<void()>& start, const std::function<bool()>& done, double& seconds)
{
    QElapsedTimer clock;
    qint64 last = 0;
    qint64 worst = 0;
    QTimer probe;
    probe.setInterval(1);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        worst = std::max(worst, now - last);
        last = now;
    });
    clock.start();
    probe.start();
    start();
    // The phase's own first call is on the UI thread too: it counts.
    const qint64 afterStart = clock.nsecsElapsed();
    worst = std::max(worst, afterStart - last);
    last = afterStart;
    // processEvents() leaves deleteLater()'s deletions to the event loop, which this spin is not:
    // without them the charts' replaced axes (QtCharts deletes them later) would pile up on screen.
    while (!done()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }
    seconds = static_cast<double>(clock.nsecsElapsed()) / 1e9;
    return static_cast<double>(worst) / 1e6;
}

}  // namespace

int main(int argc, char** argv)
{
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    // Not a Google Benchmark: its one argument is a file prefix, and an option there (a
    // --benchmark_... flag) once became two PNGs named after it.
    if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
        std::fprintf(stderr, "usage: bench_loop_ui [PREFIX]  (saves PREFIX-run.png and PREFIX-branch.png)\n");
        return 2;
    }
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    ui::LoopPage page;
    app::LoopSpec spec;
    spec.prompt = QStringLiteral("The sampler");
    spec.steps = app::kMaxLoopSteps;
    page.setSpec(spec);
    page.passBox()->setValue(0.0);
    page.prefillBox()->setValue(0.0);
    page.resize(1280, 800);
    page.show();
    QCoreApplication::processEvents();
    page.rewindOne();
    while (page.mainLoop() && !page.mainLoop()->steps().empty())
        page.rewindOne();

    double seconds = 0.0;
    const double play = longestStall([&] { page.play(); }, [&] { return !page.isPlaying(); }, seconds);
    std::printf("play %zu steps at 0 ms/pass: %.2f s, longest UI stall %.1f ms\n", page.mainLoop()->steps().size(),
                seconds, play);

    const double run = longestStall([&] { page.run(); }, [&] { return !page.isRunning(); }, seconds);
    std::printf("run N = %zu on a worker: %.2f s, longest UI stall %.1f ms\n", page.mainLoop()->steps().size(), seconds,
                run);
    const QString shots = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QString();
    const auto shoot = [&](const char* phase) {
        if (shots.isEmpty())
            return;
        QCoreApplication::processEvents();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        const QString path = shots + QStringLiteral("-%1.png").arg(QLatin1String(phase));
        if (!page.grab().save(path))
            std::fprintf(stderr, "could not write %s\n", qPrintable(path));
    };
    shoot("run");

    page.shownStepBox()->setValue(0);
    const double branch = longestStall([&] { page.branchHere(); }, [&] { return !page.isBranching(); }, seconds);
    std::printf("branch at 0 to %zu steps: %.2f s, longest UI stall %.1f ms\n",
                page.branchLoop() ? page.branchLoop()->steps().size() : std::size_t{0}, seconds, branch);
    shoot("branch");
    return (play > 50.0 || run > 50.0 || branch > 50.0) ? 1 : 0;
}
