// Runs any experiment page's Run and waits for it to end: shared by the page suites (Seed sweep,
// its sequence mode, Junk risk, Summation order, the GUI exports).
#pragma once

#include "ui/pages/experiment_page.h"

#include <QSignalSpy>

namespace logitlab::test {

// True when the run ended with results within `timeoutMs` (two minutes by default).
inline bool runAndWait(ui::ExperimentPage& page, int timeoutMs = 120000)
{
    QSignalSpy ended(&page, &ui::ExperimentPage::runEnded);
    page.run();
    return ended.wait(timeoutMs) && ended.first().first().toBool();
}

}  // namespace logitlab::test
