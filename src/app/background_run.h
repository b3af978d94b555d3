// Runs a synchronous experiment job on QtConcurrent's pool with its progress and cancellation
// wired to the returned future. Every experiment's start function is this plus its own job.
// A cancelled future carries no result: QPromise drops results reported after cancel, so
// nothing partial can be mistaken for a complete run.
#pragma once

#include "experiment_runner.h"

#include <QFuture>
#include <QPromise>
#include <QtConcurrentRun>

#include <functional>

namespace logitlab::app {

template <class Outcome>
QFuture<Outcome> runInBackground(std::function<Outcome(const WorkControl&)> job)
{
    return QtConcurrent::run([job = std::move(job)](QPromise<Outcome>& promise) {
        // QFuture progress is an int: runs of more than 10^9 items report in coarser steps.
        std::size_t scale = 1;
        WorkControl control;
        control.isCancelled = [&promise] { return promise.isCanceled(); };
        control.started = [&promise, &scale](std::size_t total) {
            scale = total / 1'000'000'000 + 1;
            promise.setProgressRange(0, static_cast<int>(total / scale));
        };
        control.progress = [&promise, &scale](std::size_t done) {
            promise.setProgressValue(static_cast<int>(done / scale));
        };
        promise.addResult(job(control));
    });
}

}  // namespace logitlab::app
