#include "app/run/experiment_runner.h"

#include <QThread>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace logitlab::app {

int defaultThreadCount() { return std::max(1, QThread::idealThreadCount()); }

RunStatus runWorkItems(std::size_t count, int threads, const std::function<void(int, std::size_t)>& body,
                       const WorkControl& control)
{
    threads = std::max(1, threads);
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> done{0};
    std::atomic<bool> stop{false};
    std::mutex failureMutex;
    QString failure;
    const auto fail = [&](const QString& why) {
        const std::lock_guard lock(failureMutex);
        if (failure.isEmpty())
            failure = why;
        stop = true;
    };
    const auto cancelled = [&control] { return control.isCancelled && control.isCancelled(); };
    if (control.started)
        control.started(count);

    const auto work = [&](int worker) {
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
                fail(QStringLiteral("work item %1 failed: %2").arg(item).arg(QString::fromLocal8Bit(e.what())));
            } catch (...) {
                fail(QStringLiteral("work item %1 failed").arg(item));
            }
            done.fetch_add(1);
        }
    };

    // Threads of our own, not a QThreadPool: the thread count is exactly what was asked for,
    // the global pool (where the caller itself may be running) is never starved, and every
    // hand-off goes through std::thread, std::mutex and std::condition_variable, which
    // ThreadSanitizer sees. QThreadPool's hand-offs wait on a futex inside uninstrumented
    // QtCore, so TSan reported the pool's own bookkeeping as races (CI, 2026-12-02).
    std::mutex runningMutex;
    std::condition_variable finished;
    int running = 0;
    std::vector<std::thread> pool;
    pool.reserve(static_cast<std::size_t>(threads));
    for (int worker = 0; worker < threads; ++worker) {
        {
            const std::lock_guard lock(runningMutex);
            ++running;
        }
        try {
            pool.emplace_back([&, worker] {
                work(worker);
                const std::lock_guard lock(runningMutex);
                --running;
                finished.notify_one();
            });
        } catch (const std::system_error& e) {
            {
                const std::lock_guard lock(runningMutex);
                --running;
            }
            fail(QStringLiteral("could not start worker thread %1 of %2: %3")
                     .arg(worker + 1)
                     .arg(threads)
                     .arg(QString::fromLocal8Bit(e.what())));
            break;
        }
    }
    // Progress comes from this thread only, so it is reported in order; 20 ms keeps a cancel
    // noticed well inside the 100 ms budget even when no item finishes in between.
    {
        std::unique_lock lock(runningMutex);
        while (!finished.wait_for(lock, std::chrono::milliseconds(20), [&] { return running == 0; })) {
            lock.unlock();
            if (cancelled())
                stop = true;
            if (control.progress)
                control.progress(done.load());
            lock.lock();
        }
    }
    for (std::thread& t : pool)
        t.join();
    if (!failure.isEmpty())
        return {RunStatus::State::Failed, failure};
    if (cancelled() || (stop && done.load() < count))
        return {RunStatus::State::Cancelled, QStringLiteral("cancelled")};
    if (control.progress)
        control.progress(done.load());
    return {};
}

}  // namespace logitlab::app
