#include "cli/interrupt_guard.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <optional>

#include <signal.h>
#include <unistd.h>

namespace logitlab::cli {

namespace {

// Lock-free, so writing it is async-signal-safe.
std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free);

// Held by whoever ends the run: the main thread while it commits or reports, the watchdog when
// the deadline fires (it never lets go: the process ends).
std::mutex g_ending;
std::atomic<bool> g_fired{false};

struct sigaction g_previousInt;
struct sigaction g_previousTerm;

extern "C" void onSignal(int number) { g_signal.store(number); }

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
    m_stop.store(true);
    if (m_finishing)
        g_ending.unlock();
    if (m_watchdog.joinable())
        m_watchdog.join();
    sigaction(SIGINT, &g_previousInt, nullptr);
    sigaction(SIGTERM, &g_previousTerm, nullptr);
}

void InterruptGuard::abandonAfter(std::chrono::milliseconds grace, std::function<void()> abandon)
{
    m_watchdog = std::thread([this, grace, abandon = std::move(abandon)] {
        using Clock = std::chrono::steady_clock;
        std::optional<Clock::time_point> deadline;
        while (!m_stop.load()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            if (!deadline && g_signal.load() != 0)
                deadline = Clock::now() + grace;
            if (!deadline || Clock::now() < *deadline)
                continue;
            std::unique_lock lock(g_ending, std::try_to_lock);
            if (!lock.owns_lock())
                continue;  // the main thread is finishing: it reports and exits by itself
            if (m_stop.load())
                return;
            g_fired.store(true);
            if (abandon)
                abandon();
            std::fflush(stdout);
            std::fflush(stderr);
            ::_exit(exitCode());
        }
    });
}

bool InterruptGuard::finishing()
{
    if (m_finishing)
        return true;
    if (g_fired.load())
        return false;
    g_ending.lock();  // held until the guard ends: the watchdog stays quiet meanwhile
    m_finishing = true;
    return !g_fired.load();
}

bool InterruptGuard::interrupted() const { return g_signal.load() != 0; }

int InterruptGuard::signalNumber() const { return g_signal.load(); }

QString InterruptGuard::signalName() const
{
    switch (g_signal.load()) {
    case SIGINT:
        return QStringLiteral("SIGINT");
    case SIGTERM:
        return QStringLiteral("SIGTERM");
    default:
        return QStringLiteral("signal %1").arg(g_signal.load());
    }
}

}  // namespace logitlab::cli
