// How long one temperature-slider step takes on the Explorer with V tokens: the signal, one
// engine::analyse, the table's dataChanged, the chart rebuild and the readouts (SliderStep),
// the same plus the paint the event loop does (SliderStepAndPaint), and the engine alone. The budget is one
// frame, 16 ms, at V = 262,144. Runs with the offscreen platform; no display needed.
#include "candidates_from_order.h"
#include "chain_controls.h"
#include "explorer_page.h"
#include "main_window.h"
#include "sampler_analysis.h"
#include "synthetic_vocabulary.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSlider>
#include <QUndoStack>

#include <benchmark/benchmark.h>

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
        while ((page->sweepRunning() || page->drawsRunning()) && t.elapsed() < 60'000)
            QApplication::processEvents(QEventLoop::AllEvents, 20);
        QApplication::processEvents();
    }
};

// Slider positions 0.50 .. 1.49: the drag a lecturer makes, never repeating a value twice in a row.
int nextPosition(int& step)
{
    return 50 + (step++ % 100);
}

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

void BM_SliderStepAndPaint(benchmark::State& state)
{
    stepAndPaint(state, false);
}

void BM_SliderStepAndFullRepaint(benchmark::State& state)
{
    stepAndPaint(state, true);
}

// A whole new vocabulary (Generate): engine generation, the sort by logit, a model reset and
// the chart, all on the UI thread. Not a per-frame cost, but the UI is blocked while it runs.
void BM_GenerateVocabulary(benchmark::State& state)
{
    Fixture f(5);
    engine::SyntheticSpec spec;
    spec.size = static_cast<int>(state.range(0));
    for (auto _ : state) {
        ++spec.seed;
        f.page->generateVocabulary(spec);
        QApplication::processEvents();
        state.PauseTiming();
        f.page->cancel();  // the background sweep is not part of the blocking time
        f.settle();
        f.page->undoStack()->clear();
        state.ResumeTiming();
    }
    state.SetLabel("V = " + std::to_string(state.range(0)));
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
BENCHMARK(BM_GenerateVocabulary)->Arg(32'000)->Arg(262'144)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(BM_SliderStepAndFullRepaint)->Arg(5)->Arg(262'144)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
