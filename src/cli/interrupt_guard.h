// Ctrl-C and `kill` during `logitlab-cli run`: while an InterruptGuard lives, SIGINT and SIGTERM
// only raise a flag that the experiment runner polls between work items, so the run stops at the
// next item, its staged output is removed and the command exits 130 / 143 (128 + the signal)
// with one line. A second signal of the same kind ends the process at once, as usual.
#pragma once

#include <QString>

namespace logitlab::cli {

class InterruptGuard {
public:
    InterruptGuard();   // installs the handlers
    ~InterruptGuard();  // puts the earlier ones back
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;

    // Safe from any thread.
    bool interrupted() const;
    int signalNumber() const;  // 0 until a signal came
    QString signalName() const;  // "SIGINT", "SIGTERM"
    int exitCode() const { return 128 + signalNumber(); }
};

}  // namespace logitlab::cli
