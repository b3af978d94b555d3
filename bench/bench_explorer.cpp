// How long one temperature-slider step takes on the Explorer with V tokens: the signal, one
// engine::analyse, the table's dataChanged, the chart rebuild and the readouts (SliderStep),
// the same plus the paint the event loop does (SliderStepAndPaint), and the engine alone. The budget is one
// frame, 16 ms, at V = 262,144. And the longest the UI thread is blocked at once while a
// vocabulary of V tokens is generated, or that load is undone and redone (budget: 50 ms).
// Runs with the offscreen platform; no display needed.
#include "app/run/allocator_tuning.h"
#include "engine/models/synthetic_vocabulary.h"
#include "engine/sampler/candidates_from_order.h"
#include "engine/sampler/sampler_analysis.h"
#include "ui/forms/chain_controls.h"
#include "ui/models/logits_table_model.h"
#include "ui/pages/explorer_page.h"
#include "ui/window/main_window.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSlider>
#include <QTableView>
#include <QThread>
#include <QUndoStack>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <ctime>
#include <vector>

using namespace logitlab;

namespace {

// A window with the Explorer on a Zipf vocabulary of `size` tokens, background work finished.
struct Fixture {
    ui::MainWindow window;
    ui::ExplorerPage* page = new ui::ExplorerPage;

    explicit Fixture(int size)
    {
        window.addPage(page);
        window.resize(1280, 800);
        window.show();
        engine::SyntheticSpec spec;
        spec.size = size;
        page->generateVocabulary(spec);
        settle();
    }
    void settle()
    {
        QElapsedTimer t;
        t.start();
        while ((page->loading() || page->sweepRunning() || page->drawsRunning()) && t.elapsed() < 60'000)
            QApplication::processEvents(QEventLoop::AllEvents, 20);
        QApplication::processEvents();
    }
};

// Slider positions 0.50 .. 1.49: the drag a lecturer makes, never repeating a value twice in a row.
int nextPosition(int& step) { return 50 + (step++ % 100); }

void BM_SliderStep(benchmark::State& state)
{
    Fixture f(static_cast<int>(state.range(0)));
    QSlider* slider = f.page->chainControls()->temperatureSlider();
    int step = 0;
    for (auto _ : state)
        slider->setValue(nextPosition(step));
    state.SetLabel("V = " + std::to_string(state.range(0)));
}

// What a real frame costs: the step, then the event loop paints the regions it dirtied
// (chart, visible table rows, readouts, slider) into the offscreen backing store. With
// `fullRepaint`, an upper bound: the whole 1280x800 window is repainted every step.
void stepAndPaint(benchmark::State& state, bool fullRepaint)
{
    Fixture f(static_cast<int>(state.range(0)));
    QSlider* slider = f.page->chainControls()->temperatureSlider();
    int step = 0;
    for (auto _ : state) {
        slider->setValue(nextPosition(step));
        QApplication::processEvents();
        if (fullRepaint)
            f.window.repaint();
    }
    state.SetLabel("V = " + std::to_string(state.range(0)));
}

void BM_SliderStepAndPaint(benchmark::State& state) { stepAndPaint(state, false); }

void BM_SliderStepAndFullRepaint(benchmark::State& state) { stepAndPaint(state, true); }

// A step and its paint with the table in a given order: sorted by p at T (a header click; a
// table this large also opens so), the sort proxy checks the order again on every step; in id
// order (-1) it maps rows one to one.
void stepAndPaintSorted(benchmark::State& state, int column)
{
    Fixture f(static_cast<int>(state.range(0)));
    f.page->tableView()->sortByColumn(column, Qt::DescendingOrder);
    QSlider* slider = f.page->chainControls()->temperatureSlider();
    int step = 0;
    for (auto _ : state) {
        slider->setValue(nextPosition(step));
        QApplication::processEvents();
    }
    state.SetLabel("V = " + std::to_string(state.range(0)));
}

void BM_SliderStepAndPaintSortedByP(benchmark::State& state)
{
    stepAndPaintSorted(state, ui::LogitsTableModel::ProbabilityColumn);
}

void BM_SliderStepAndPaintInIdOrder(benchmark::State& state) { stepAndPaintSorted(state, -1); }

// One logit typed into the table: the undo step, an edited copy of the shared table (the
// token moved within the order in O(V)), the analysis, the chart; then the paint.
void BM_EditLogit(benchmark::State& state)
{
    Fixture f(static_cast<int>(state.range(0)));
    ui::LogitsTableModel* model = f.page->model();
    int step = 0;
    for (auto _ : state) {
        model->setData(model->index(step % 1000, ui::LogitsTableModel::LogitColumn), QString::number(step % 7 - 3.5));
        ++step;
        QApplication::processEvents();
    }
    state.SetLabel("V = " + std::to_string(state.range(0)));
}

// The longest the UI thread is busy in one go while `action` runs and the page settles: the
// action itself, then each processEvents() (one pass of the event loop: the load's hand-off,
// the model reset, the sweep's result, the paints) until no load or sweep is in flight. The
// waits between passes, when the UI thread would be idle, are not counted.
struct Stretches {
    double longest = 0.0;     // ms, wall
    double longestCpu = 0.0;  // ms of the UI thread's own CPU time: what a stretch costs on an idle core
    double total = 0.0;       // ms from the action to a settled page, waits included

    void keepLongest(const Stretches& other)
    {
        longest = std::max(longest, other.longest);
        longestCpu = std::max(longestCpu, other.longestCpu);
    }
};

double threadCpuMs()
{
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

template <class Action>
Stretches timeStretches(Fixture& f, Action action)
{
    Stretches s;
    QElapsedTimer wall;
    wall.start();
    const auto timed = [&s](auto step) {
        const double cpu = threadCpuMs();
        QElapsedTimer t;
        t.start();
        step();
        s.keepLongest({static_cast<double>(t.nsecsElapsed()) / 1e6, threadCpuMs() - cpu, 0.0});
    };
    const auto pass = [] { QApplication::processEvents(); };
    timed(action);
    timed(pass);
    while ((f.page->loading() || f.page->sweepRunning()) && wall.elapsed() < 60'000) {
        QThread::usleep(200);  // the UI thread has nothing to do until a worker reports
        timed(pass);
    }
    timed(pass);  // the paint of the final state
    s.total = static_cast<double>(wall.nsecsElapsed()) / 1e6;
    return s;
}

void reportStretches(benchmark::State& state, const Stretches& longest, const std::vector<double>& totals)
{
    state.counters["longest_ms"] = longest.longest;
    state.counters["longest_cpu_ms"] = longest.longestCpu;
    double sum = 0.0;
    for (double t : totals)
        sum += t;
    state.counters["total_ms"] = totals.empty() ? 0.0 : sum / static_cast<double>(totals.size());
    state.SetLabel("V = " + std::to_string(state.range(0)) +
                   (state.range(1) >= 0 ? ", sorted by column " + std::to_string(state.range(1)) : ""));
}

// Generate as the user sees it: the longest UI-thread stretch of any iteration (longest_ms,
// the "never more than 50 ms"; longest_cpu_ms) and the mean wall time until table,
// chart and sweep are in (total_ms, also the iteration time). Arguments: V and the column the
// table is sorted by (descending, as a header click; -1: id order).
void BM_GenerateLongestStretch(benchmark::State& state)
{
    Fixture f(5);
    f.page->tableView()->sortByColumn(static_cast<int>(state.range(1)), Qt::DescendingOrder);
    engine::SyntheticSpec spec;
    spec.size = static_cast<int>(state.range(0));
    Stretches longest;
    std::vector<double> totals;
    for (auto _ : state) {
        ++spec.seed;
        const Stretches s = timeStretches(f, [&] { f.page->generateVocabulary(spec); });
        longest.keepLongest(s);
        totals.push_back(s.total);
        state.SetIterationTime(s.total / 1e3);
        state.PauseTiming();
        f.page->undoStack()->undo();  // back to the 5 tokens: every iteration loads 5 -> V, as the first one does
        f.settle();
        f.page->undoStack()->clear();
        state.ResumeTiming();
    }
    reportStretches(state, longest, totals);
}

// Undo, then redo, of a Generate of V tokens: one iteration each, the same counters.
void BM_UndoRedoLongestStretch(benchmark::State& state)
{
    Fixture f(5);
    f.page->tableView()->sortByColumn(static_cast<int>(state.range(1)), Qt::DescendingOrder);
    engine::SyntheticSpec spec;
    spec.size = static_cast<int>(state.range(0));
    timeStretches(f, [&] { f.page->generateVocabulary(spec); });
    QUndoStack* undo = f.page->undoStack();
    Stretches longest;
    std::vector<double> totals;
    for (auto _ : state) {
        const Stretches s = timeStretches(f, [undo] { undo->canRedo() ? undo->redo() : undo->undo(); });
        longest.keepLongest(s);
        totals.push_back(s.total);
        state.SetIterationTime(s.total / 1e3);
    }
    reportStretches(state, longest, totals);
}

// The engine call alone, for comparison: what the UI adds is the difference.
void BM_Analyse(benchmark::State& state)
{
    engine::SyntheticSpec spec;
    spec.size = static_cast<int>(state.range(0));
    const auto d = engine::syntheticVocabulary(spec);
    int step = 0;
    for (auto _ : state) {
        const double t = 0.5 + (step++ % 100) / 100.0;
        benchmark::DoNotOptimize(engine::analyse(d.logits, engine::SamplerSettings{t, std::nullopt, 0.9}));
    }
}

// The path the Explorer takes: the order by logit is sorted once per set of logits.
void BM_AnalyseWithOrder(benchmark::State& state)
{
    engine::SyntheticSpec spec;
    spec.size = static_cast<int>(state.range(0));
    const auto d = engine::syntheticVocabulary(spec);
    const auto order = engine::idsByDescendingLogit(d.logits);
    int step = 0;
    for (auto _ : state) {
        const double t = 0.5 + (step++ % 100) / 100.0;
        benchmark::DoNotOptimize(engine::analyse(d.logits, engine::SamplerSettings{t, std::nullopt, 0.9}, order));
    }
}

}  // namespace

BENCHMARK(BM_AnalyseWithOrder)->Arg(5)->Arg(32'000)->Arg(262'144)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Analyse)->Arg(5)->Arg(32'000)->Arg(262'144)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SliderStep)->Arg(5)->Arg(32'000)->Arg(262'144)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SliderStepAndPaint)->Arg(5)->Arg(32'000)->Arg(262'144)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GenerateLongestStretch)
    ->ArgNames({"V", "sort"})
    ->Args({262'144, -1})
    ->Args({262'144, ui::LogitsTableModel::LogitColumn})
    ->Args({262'144, ui::LogitsTableModel::TokenColumn})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK(BM_UndoRedoLongestStretch)
    ->ArgNames({"V", "sort"})
    ->Args({262'144, -1})
    ->Args({262'144, ui::LogitsTableModel::LogitColumn})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(4);
BENCHMARK(BM_SliderStepAndFullRepaint)->Arg(5)->Arg(262'144)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SliderStepAndPaintSortedByP)->Arg(262'144)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SliderStepAndPaintInIdOrder)->Arg(262'144)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EditLogit)->Arg(262'144)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv)
{
    app::keepLargeAllocations();  // as logitlab does
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
