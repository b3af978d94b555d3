// The runner every experiment uses: runs work items 0..count-1 on a pool of its own threads,
// each worker pulling the next item index, checking for cancellation between items and never
// letting an exception out of its thread. Progress is reported as items done. The result does
// not depend on the thread count as long as items are pure functions of their index (see
// docs/experiments.md).
#pragma once

#include <QString>

#include <cstddef>
#include <functional>

namespace logitlab::app {

struct RunStatus {
    enum class State { Finished, Cancelled, Failed };
    State state = State::Finished;
    QString message;  // why it failed; empty otherwise

    bool finished() const { return state == State::Finished; }
};

struct WorkControl {
    std::function<bool()> isCancelled;               // polled between items, from any thread
    std::function<void(std::size_t total)> started;  // once, before the first item
    std::function<void(std::size_t done)> progress;  // called on the runner's own thread
};

// Default thread count: all cores.
int defaultThreadCount();

// body(worker, item): worker is in [0, threads), so a body can keep per-worker accumulators
// without locks. Blocks until all items ran, the run was cancelled, or an item threw.
RunStatus runWorkItems(std::size_t count, int threads, const std::function<void(int worker, std::size_t item)>& body,
                       const WorkControl& control);

}  // namespace logitlab::app
