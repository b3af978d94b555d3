// Runs a synchronous experiment job on QtConcurrent's pool with its progress and cancellation
// wired to the returned future. Every experiment's start function is this plus its own job.
// A cancelled future carries no result: QPromise drops results reported after cancel, so
// nothing partial can be mistaken for a complete run.
#pragma once

#include "app/run/experiment_runner.h"

#include <QFuture>
#include <QPromise>
#include <QtConcurrentRun>

#include <functional>
#include <memory>

namespace logitlab::app {

// A job's WorkControl over a promise: cancel, the total and items done go through the future.
// The promise must outlive the control.
template <class Result>
WorkControl promiseWorkControl(QPromise<Result>& promise)
{
    // QFuture progress is an int: runs of more than 10^9 items report in coarser steps.
    auto scale = std::make_shared<std::size_t>(1);
    WorkControl control;
    control.isCancelled = [&promise] { return promise.isCanceled(); };
    control.started = [&promise, scale](std::size_t total) {
        *scale = total / 1'000'000'000 + 1;
        promise.setProgressRange(0, static_cast<int>(total / *scale));
    };
    control.progress = [&promise, scale](std::size_t done) {
        promise.setProgressValue(static_cast<int>(done / *scale));
    };
    return control;
}

template <class Outcome>
QFuture<Outcome> runInBackground(std::function<Outcome(const WorkControl&)> job)
{
    return QtConcurrent::run(
        [job = std::move(job)](QPromise<Outcome>& promise) { promise.addResult(job(promiseWorkControl(promise))); });
}

}  // namespace logitlab::app
