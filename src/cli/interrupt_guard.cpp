#include "interrupt_guard.h"

#include <atomic>
#include <csignal>

#include <signal.h>

namespace logitlab::cli {

namespace {

// Lock-free, so writing it is async-signal-safe.
std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free);

struct sigaction g_previousInt;
struct sigaction g_previousTerm;

extern "C" void onSignal(int number)
{
    g_signal.store(number);
}

}  // namespace

InterruptGuard::InterruptGuard()
{
    g_signal.store(0);
    struct sigaction action = {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;  // the second signal takes the default action: ends the process
    sigaction(SIGINT, &action, &g_previousInt);
    sigaction(SIGTERM, &action, &g_previousTerm);
}

InterruptGuard::~InterruptGuard()
{
    sigaction(SIGINT, &g_previousInt, nullptr);
    sigaction(SIGTERM, &g_previousTerm, nullptr);
}

bool InterruptGuard::interrupted() const
{
    return g_signal.load() != 0;
}

int InterruptGuard::signalNumber() const
{
    return g_signal.load();
}

QString InterruptGuard::signalName() const
{
    switch (g_signal.load()) {
    case SIGINT: return QStringLiteral("SIGINT");
    case SIGTERM: return QStringLiteral("SIGTERM");
    default: return QStringLiteral("signal %1").arg(g_signal.load());
    }
}

}  // namespace logitlab::cli
