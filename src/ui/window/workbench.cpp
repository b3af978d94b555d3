#include "ui/window/workbench.h"

#include "ui/pages/batch_invariance_page.h"
#include "ui/pages/explorer_page.h"
#include "ui/pages/junk_risk_page.h"
#include "ui/pages/loop_page.h"
#include "ui/pages/seed_sweep_page.h"
#include "ui/pages/summation_page.h"
#include "ui/window/main_window.h"

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
