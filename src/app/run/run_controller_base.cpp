#include "app/run/run_controller_base.h"

#include <QFutureWatcher>
#include <QtConcurrentRun>

#include <utility>

namespace logitlab::app {

RunControllerBase::RunControllerBase(Mode mode, QObject* parent) : QObject(parent), m_mode(mode) {}

RunControllerBase::~RunControllerBase()
{
    // The page that owns us may be half destroyed: stop, wait, and tell nobody.
    blockSignals(true);
    cancel();
    waitForWorkers();
}

int RunControllerBase::submit(Work work, Landing land)
{
    Request request{++m_generation, std::move(work), std::move(land)};
    if (m_watcher && m_mode == Mode::LatestOnly) {
        m_watcher->cancel();  // asks the worker to stop early; it is launched when this one returns
        m_waiting = std::move(request);
        return m_generation;
    }
    forgetActive();
    launch(std::move(request));
    return m_generation;
}

void RunControllerBase::launch(Request request)
{
    m_activeId = request.id;
    m_activeLand = std::move(request.land);
    // A worker stopped before it began does nothing: QFuture::waitForFinished may run a queued
    // task on the waiting thread, and the destructor should not do a cancelled run's work.
    QFuture<void> future = QtConcurrent::run([work = std::move(request.work)](QPromise<void>& promise) {
        if (!promise.isCanceled())
            work(promise);
    });
    m_workers.removeIf([](const QFuture<void>& f) { return f.isFinished(); });
    m_workers.append(future);
    auto* watcher = new QFutureWatcher<void>(this);
    m_watcher = watcher;
    connect(watcher, &QFutureWatcherBase::progressValueChanged, this,
            [this, watcher](int value) { emit progressChanged(value, watcher->progressMaximum()); });
    connect(watcher, &QFutureWatcherBase::finished, this, [this, id = request.id] { finished(id); });
    watcher->setFuture(future);
    setBusy(true);
}

void RunControllerBase::finished(int id)
{
    if (!m_watcher || id != m_activeId)
        return;  // stopped and forgotten: its result is not wanted
    m_watcher->deleteLater();
    m_watcher = nullptr;
    const Landing land = std::exchange(m_activeLand, {});
    if (m_waiting) {
        launch(*std::exchange(m_waiting, std::nullopt));  // the newest request; this result is stale
        return;
    }
    setBusy(false);  // before landing: the landing may start the next run
    land();
}

bool RunControllerBase::cancel()
{
    if (!isRunning())
        return false;
    m_waiting.reset();
    forgetActive();
    setBusy(false);
    return true;
}

void RunControllerBase::forgetActive()
{
    if (!m_watcher)
        return;
    // Deleted later: we may be inside one of its own signals (a progress handler that cancels).
    m_watcher->disconnect(this);
    m_watcher->cancel();
    m_watcher->deleteLater();
    m_watcher = nullptr;
    m_activeLand = {};
}

void RunControllerBase::waitForWorkers()
{
    for (QFuture<void>& future : m_workers)
        future.waitForFinished();
    m_workers.clear();
}

void RunControllerBase::setBusy(bool busy)
{
    if (busy == m_busy)
        return;
    m_busy = busy;
    emit busyChanged(busy);
}

}  // namespace logitlab::app
