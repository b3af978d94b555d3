#include "experiment_runner.h"

#include <QThread>
#include <QThreadPool>

#include <atomic>
#include <exception>
#include <mutex>

namespace logitlab::app {

int defaultThreadCount()
{
    return std::max(1, QThread::idealThreadCount());
}

RunStatus runWorkItems(std::size_t count, int threads, const std::function<void(int, std::size_t)>& body,
                       const WorkControl& control)
{
    threads = std::max(1, threads);
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> done{0};
    std::atomic<bool> stop{false};
    std::mutex failureMutex;
    QString failure;
    const auto cancelled = [&control] { return control.isCancelled && control.isCancelled(); };
    if (control.started)
        control.started(count);

    // A pool of our own: the thread count is exactly what was asked for, and the global pool
    // (where the caller itself may be running) is never starved.
    QThreadPool pool;
    pool.setMaxThreadCount(threads);
    for (int worker = 0; worker < threads; ++worker) {
        pool.start([&, worker] {
            while (!stop.load(std::memory_order_relaxed)) {
                if (cancelled()) {
                    stop = true;
                    break;
                }
                const std::size_t item = next.fetch_add(1);
                if (item >= count)
                    break;
                try {
                    body(worker, item);
                } catch (const std::exception& e) {
                    const std::lock_guard lock(failureMutex);
                    if (failure.isEmpty())
                        failure =
                            QStringLiteral("work item %1 failed: %2").arg(item).arg(QString::fromLocal8Bit(e.what()));
                    stop = true;
                } catch (...) {
                    const std::lock_guard lock(failureMutex);
                    if (failure.isEmpty())
                        failure = QStringLiteral("work item %1 failed").arg(item);
                    stop = true;
                }
                done.fetch_add(1);
            }
        });
    }
    // Progress comes from this thread only, so it is reported in order; 20 ms keeps a cancel
    // noticed well inside the 100 ms budget even when no item finishes in between.
    while (!pool.waitForDone(20)) {
        if (cancelled())
            stop = true;
        if (control.progress)
            control.progress(done.load());
    }
    if (!failure.isEmpty())
        return {RunStatus::State::Failed, failure};
    if (cancelled() || (stop && done.load() < count))
        return {RunStatus::State::Cancelled, QStringLiteral("cancelled")};
    if (control.progress)
        control.progress(done.load());
    return {};
}

} // namespace logitlab::app
