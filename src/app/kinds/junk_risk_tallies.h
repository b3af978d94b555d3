// Runs a prepared junk-risk experiment's work items (one distribution or along a reply) on the
// runner with one integer tally per worker, then sums them: integers, so any order and any
// thread count give the same bits.
#pragma once

#include "app/run/experiment_runner.h"
#include "engine/experiments/junk_risk.h"

#include <algorithm>
#include <vector>

namespace logitlab::app {

// `experiment` has itemCount(), emptyCounts() and runItem(index, counts). `total` is set only
// when the returned status is finished.
template <class Experiment>
RunStatus runJunkRiskItems(const Experiment& experiment, int threads, const WorkControl& control,
                           engine::JunkRiskCounts& total)
{
    const int workers = std::max(1, threads);
    std::vector<engine::JunkRiskCounts> tallies(static_cast<std::size_t>(workers), experiment.emptyCounts());
    const RunStatus status = runWorkItems(
        experiment.itemCount(), workers,
        [&](int worker, std::size_t item) { experiment.runItem(item, tallies[static_cast<std::size_t>(worker)]); },
        control);
    if (!status.finished())
        return status;
    total = experiment.emptyCounts();
    for (const auto& t : tallies)
        total.add(t);
    return status;
}

}  // namespace logitlab::app
