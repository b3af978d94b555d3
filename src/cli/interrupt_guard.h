// Ctrl-C and `kill` during `logitlab-cli run`: while an InterruptGuard lives, SIGINT and SIGTERM
// only raise a flag that the experiment runner polls between work items, so the run stops at the
// next item, its staged output is removed and the command exits 130 / 143 (128 + the signal)
// with one line. A second signal of the same kind ends the process at once, as usual. Phases
// that poll nothing (chart layout and rendering) are covered by abandonAfter(): the process
// ends within the grace period all the same, its staged output removed.
#pragma once

#include <QString>

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>

namespace logitlab::cli {

class InterruptGuard {
public:
    InterruptGuard();   // installs the handlers
    ~InterruptGuard();  // puts the earlier ones back
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;

    // Safe from any thread.
    bool interrupted() const;
    int signalNumber() const;    // 0 until a signal came
    QString signalName() const;  // "SIGINT", "SIGTERM"
    int exitCode() const { return 128 + signalNumber(); }

    // A deadline for phases that do not poll (a chart laid out or rendered, a file written):
    // `grace` after a signal, if the process is still running, `abandon` runs on the guard's own
    // thread (remove the staged output, say so) and the process ends with exitCode() at once.
    // `abandon` must not touch objects the main thread is using. Call at most once.
    void abandonAfter(std::chrono::milliseconds grace, std::function<void()> abandon);
    // The main thread is finishing by itself (committing, or reporting the signal): the deadline
    // waits until it is done rather than abandoning a half-finished commit. Returns false when
    // the deadline already fired (the process is ending).
    bool finishing();

private:
    std::thread m_watchdog;
    std::atomic<bool> m_stop{false};
    bool m_finishing = false;  // this guard's main thread holds the ending lock
};

}  // namespace logitlab::cli
