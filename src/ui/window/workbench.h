// The workbench as the application shows it: the Explorer, Junk risk, Seed sweep, Loop,
// Summation order and Batch invariance pages in the main window, in that order. Pages hand work
// to each other through the page interface (Page::distributionOffered -> MainWindow::handOff ->
// Page::acceptDistribution), so this only adds them; main() and the tests build the same window with it.
#pragma once

namespace logitlab::ui {

class BatchInvariancePage;
class ExplorerPage;
class JunkRiskPage;
class LoopPage;
class MainWindow;
class SeedSweepPage;
class SummationPage;

struct Workbench {
    ExplorerPage* explorer = nullptr;
    JunkRiskPage* junkRisk = nullptr;
    SeedSweepPage* seedSweep = nullptr;
    LoopPage* loop = nullptr;
    SummationPage* summation = nullptr;
    BatchInvariancePage* batchInvariance = nullptr;
};

Workbench buildWorkbench(MainWindow& window);

}  // namespace logitlab::ui
