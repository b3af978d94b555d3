// The GUI's run controller: a superseded run never lands (in both modes, and LatestOnly runs
// one worker at a time and always the newest request), cancel stops and drops at once,
// progress comes from the current run, busy is counted across controllers, a throwing job
// reports failed(), and destroying the controller during a run cancels and waits for it.
#include "app/run/busy_counter.h"
#include "app/run/run_controller.h"

#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

using namespace logitlab::app;

Q_DECLARE_METATYPE(logitlab::app::RunControllerBase::Mode)

namespace {

// Jobs that wait for their own gate (or for cancel), counting how many run at once.
struct Jobs {
    std::map<int, std::shared_ptr<QSemaphore>> gates;
    std::atomic<int> inFlight{0};
    std::atomic<int> mostInFlight{0};
    std::mutex mutex;
    std::vector<int> ran;  // jobs whose body started, in order

    RunController<int>::Job gated(int value)
    {
        auto gate = std::make_shared<QSemaphore>();
        gates[value] = gate;
        return [this, value, gate](const WorkControl& control) {
            {
                const std::lock_guard lock(mutex);
                ran.push_back(value);
            }
            const int now = ++inFlight;
            int most = mostInFlight.load();
            while (now > most && !mostInFlight.compare_exchange_weak(most, now)) {
            }
            while (!control.isCancelled() && !gate->tryAcquire(1, 2)) {
            }
            --inFlight;
            return value;
        };
    }
    void release(int value) { gates.at(value)->release(); }
};

}  // namespace

class TestRunController : public QObject {
    Q_OBJECT
private slots:
    void supersededRunsAreDropped_data()
    {
        QTest::addColumn<RunControllerBase::Mode>("mode");
        QTest::newRow("supersede") << RunControllerBase::Mode::Supersede;
        QTest::newRow("latest only") << RunControllerBase::Mode::LatestOnly;
    }
    void supersededRunsAreDropped()
    {
        QFETCH(RunControllerBase::Mode, mode);
        Jobs jobs;
        std::vector<int> landed;
        RunController<int> runs(mode);
        const auto land = [&landed](int& value) { landed.push_back(value); };
        QCOMPARE(runs.start(jobs.gated(1), land), 1);
        QTRY_COMPARE(jobs.inFlight.load(), 1);  // the first is running when the others come
        QCOMPARE(runs.start(jobs.gated(2), land), 2);
        QCOMPARE(runs.start(jobs.gated(3), land), 3);
        QCOMPARE(runs.currentRun(), 3);
        QVERIFY(runs.isRunning());
        jobs.release(3);
        QTRY_VERIFY(!runs.isRunning());
        runs.waitForWorkers();
        QCoreApplication::processEvents();
        QCOMPARE(landed, std::vector<int>{3});
        if (mode == RunControllerBase::Mode::LatestOnly) {
            // The waiting request 2 was replaced by 3 before it began; never two at once.
            QCOMPARE(jobs.ran, (std::vector<int>{1, 3}));
            QCOMPARE(jobs.mostInFlight.load(), 1);
        }
    }

    void cancelStopsAndDropsTheRun()
    {
        Jobs jobs;
        bool landed = false;
        RunController<int> runs;
        QSignalSpy busy(&runs, &RunControllerBase::busyChanged);
        runs.start(jobs.gated(1), [&landed](int&) { landed = true; });
        QVERIFY(runs.isRunning());
        QVERIFY(runs.cancel());
        QVERIFY(!runs.isRunning());
        QCOMPARE(busy.count(), 2);
        QCOMPARE(busy.at(0).at(0).toBool(), true);
        QCOMPARE(busy.at(1).at(0).toBool(), false);
        runs.waitForWorkers();  // returns: the job saw the cancel (its gate is never opened)
        QCoreApplication::processEvents();
        QVERIFY(!landed);
        QVERIFY(!runs.cancel());  // nothing left to stop
        QCOMPARE(busy.count(), 2);
    }

    void progressComesFromTheCurrentRun()
    {
        auto gateA = std::make_shared<QSemaphore>();
        RunController<int> runs;
        QSignalSpy progress(&runs, &RunControllerBase::progressChanged);
        bool landed = false;
        const auto steps = [](int total, std::shared_ptr<QSemaphore> gate) {
            return [total, gate](const WorkControl& control) {
                if (gate)
                    gate->acquire();  // deaf to cancel: it reports after it was superseded
                control.started(static_cast<std::size_t>(total));
                for (int i = 1; i <= total; ++i)
                    control.progress(static_cast<std::size_t>(i));
                return total;
            };
        };
        runs.start(steps(7, gateA), [](int&) { QFAIL("the superseded run landed"); });
        runs.start(steps(3, nullptr), [&landed](int&) { landed = true; });
        QTRY_VERIFY(landed);
        gateA->release();
        runs.waitForWorkers();
        QCoreApplication::processEvents();
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.last().at(0).toInt(), 3);
        QCOMPARE(progress.last().at(1).toInt(), 3);
        // Before the job states its total the future may report 0 of 0 (a busy indicator);
        // every real report is the current run's, none the superseded one's 7.
        for (const auto& report : progress)
            QVERIFY(report.at(1).toInt() == 0 || report.at(1).toInt() == 3);
    }

    void busyIsCountedAcrossControllers()
    {
        Jobs jobs;
        BusyCounter counter;
        RunController<int> first;
        RunController<int> second;
        connect(&first, &RunControllerBase::busyChanged, &counter, &BusyCounter::change);
        connect(&second, &RunControllerBase::busyChanged, &counter, &BusyCounter::change);
        QSignalSpy busy(&counter, &BusyCounter::busyChanged);
        int landed = 0;
        const auto land = [&landed](int&) { ++landed; };
        first.start(jobs.gated(1), land);
        second.start(jobs.gated(2), land);
        QCOMPARE(counter.count(), 2);
        first.start(jobs.gated(3), land);  // superseding keeps the controller busy: no change
        QCOMPARE(counter.count(), 2);
        jobs.release(3);
        QTRY_COMPARE(landed, 1);
        QVERIFY(counter.isBusy());  // the second still runs: its busy state is not hidden
        QCOMPARE(busy.count(), 1);
        jobs.release(2);
        QTRY_COMPARE(landed, 2);
        QVERIFY(!counter.isBusy());
        QCOMPARE(busy.count(), 2);
        QCOMPARE(busy.at(0).at(0).toBool(), true);
        QCOMPARE(busy.at(1).at(0).toBool(), false);
    }

    void aThrowingJobFails()
    {
        RunController<int> runs;
        QSignalSpy failed(&runs, &RunControllerBase::failed);
        QSignalSpy busy(&runs, &RunControllerBase::busyChanged);
        bool landed = false;
        const int id = runs.start([](const WorkControl&) -> int { throw std::runtime_error("no such file"); },
                                  [&landed](int&) { landed = true; });
        QTRY_COMPARE(failed.count(), 1);
        QCOMPARE(failed.at(0).at(0).toInt(), id);
        QCOMPARE(failed.at(0).at(1).toString(), QStringLiteral("no such file"));
        QVERIFY(!landed);
        QVERIFY(!runs.isRunning());
        QCOMPARE(busy.count(), 2);
    }

    void destructionDuringARunCancelsAndWaits()
    {
        auto returned = std::make_shared<std::atomic<bool>>(false);
        auto began = std::make_shared<std::atomic<bool>>(false);
        bool landed = false;
        auto* runs = new RunController<int>;
        QSignalSpy busy(runs, &RunControllerBase::busyChanged);
        runs->start(
            [returned, began](const WorkControl& control) {
                began->store(true);
                while (!control.isCancelled())
                    QThread::msleep(1);
                returned->store(true);
                return 0;
            },
            [&landed](int&) { landed = true; });
        QTRY_VERIFY(began->load());
        delete runs;
        QVERIFY(returned->load());  // the destructor waited for the worker
        QCOMPARE(busy.count(), 1);  // and reported nothing while dying
        QCoreApplication::processEvents();
        QVERIFY(!landed);
    }
};

QTEST_GUILESS_MAIN(TestRunController)
#include "tst_run_controller.moc"
