// Runs a seed-sweep page's experiment and waits for it: shared by the page's test suites.
#pragma once

#include "ui/pages/seed_sweep_page.h"

#include <QSignalSpy>

namespace logitlab::test {

// True when the run ended with results within two minutes.
inline bool runAndWait(ui::SeedSweepPage& page)
{
    QSignalSpy ended(&page, &ui::SeedSweepPage::runEnded);
    page.run();
    if (!ended.wait(120000))
        return false;
    return ended.first().first().toBool();
}

}  // namespace logitlab::test
