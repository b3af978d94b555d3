// The untyped half of RunController<T>: one piece of background work at a time on QtConcurrent's
// pool, each run with an id. Starting a run stops the one in flight and drops its result, so a
// superseded run never lands; cancel() stops and drops at once; progress comes from the current
// run only; busyChanged says when the controller starts and stops having a run whose result is
// wanted. Destroying the controller cancels and waits for every worker it started (closing the
// window during a run), reporting nothing.
#pragma once

#include <QFuture>
#include <QList>
#include <QObject>
#include <QPromise>
#include <QString>

#include <functional>
#include <optional>

QT_BEGIN_NAMESPACE
template <typename T>
class QFutureWatcher;
QT_END_NAMESPACE

namespace logitlab::app {

class RunControllerBase : public QObject {
    Q_OBJECT
public:
    enum class Mode {
        // start() stops the run in flight and starts the new one at once (an experiment's Run,
        // a load: the newest request wins, and its work should begin now).
        Supersede,
        // start() stops the run in flight and the new request waits for it to return; a request
        // already waiting is replaced. One worker at a time, and the last request always runs
        // (the Explorer's views while a slider is dragged).
        LatestOnly,
    };

    ~RunControllerBase() override;

    Mode mode() const { return m_mode; }
    // A run whose result is wanted is in flight or waiting.
    bool isRunning() const { return m_watcher != nullptr || m_waiting.has_value(); }
    // The id of the newest run started (ids count up from 1).
    int currentRun() const { return m_generation; }
    // Stops the run in flight (its result is dropped) and any waiting one; busy ends at once.
    // Returns whether there was anything to stop.
    bool cancel();
    // Blocks until every worker this controller started has returned, stopped ones included.
    void waitForWorkers();

signals:
    void busyChanged(bool busy);
    // The current run's progress: items done of total.
    void progressChanged(int done, int total);
    // The current run threw instead of returning a result.
    void failed(int run, const QString& message);

protected:
    using Work = std::function<void(QPromise<void>&)>;
    using Landing = std::function<void()>;

    explicit RunControllerBase(Mode mode, QObject* parent);
    // `work` runs on the pool; `land` on this thread when it returned, only if it is still the
    // current run. Returns the run's id.
    int submit(Work work, Landing land);

private:
    struct Request {
        int id = 0;
        Work work;
        Landing land;
    };
    void launch(Request request);
    void finished(int id);
    void forgetActive();
    void setBusy(bool busy);

    Mode m_mode;
    int m_generation = 0;
    bool m_busy = false;
    std::optional<Request> m_waiting;  // LatestOnly: the newest request, waiting for the run in flight
    int m_activeId = 0;                // the run in flight whose result is wanted
    Landing m_activeLand;
    QFutureWatcher<void>* m_watcher = nullptr;
    QList<QFuture<void>> m_workers;  // every worker not yet seen finished, stopped ones included
};

}  // namespace logitlab::app
