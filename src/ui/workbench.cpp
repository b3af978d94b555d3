#include "workbench.h"

#include "batch_invariance_page.h"
#include "explorer_page.h"
#include "junk_risk_page.h"
#include "loop_page.h"
#include "main_window.h"
#include "seed_sweep_page.h"
#include "summation_page.h"

namespace logitlab::ui {

Workbench buildWorkbench(MainWindow& window)
{
    Workbench pages;
    pages.explorer = new ExplorerPage;
    window.addPage(pages.explorer);
    pages.junkRisk = new JunkRiskPage;
    window.addPage(pages.junkRisk);
    pages.seedSweep = new SeedSweepPage;
    window.addPage(pages.seedSweep);
    pages.loop = new LoopPage;
    window.addPage(pages.loop);
    pages.summation = new SummationPage;
    window.addPage(pages.summation);
    pages.batchInvariance = new BatchInvariancePage;
    window.addPage(pages.batchInvariance);
    return pages;
}

}  // namespace logitlab::ui
