#include "thread_pool.h"

#include <algorithm>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace logitlab::engine::transformer {

namespace {

// About 50 us of spinning on a current x86 core before a thread goes to sleep: longer than the
// gap between two products of one token, far shorter than a scheduler's time slice.
constexpr int kSpins = 2000;

inline void relax()
{
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#else
    std::this_thread::yield();
#endif
}

}  // namespace

ThreadPool::ThreadPool(int threads) : m_threads(std::max(1, threads))
{
    m_workers.reserve(static_cast<std::size_t>(m_threads - 1));
    for (int part = 1; part < m_threads; ++part)
        m_workers.emplace_back([this, part] { work(part); });
}

ThreadPool::~ThreadPool()
{
    m_stop.store(true, std::memory_order_relaxed);
    m_generation.fetch_add(1, std::memory_order_release);
    m_generation.notify_all();
    for (auto& worker : m_workers)
        worker.join();
}

void ThreadPool::work(int part)
{
    std::uint32_t seen = 0;
    for (;;) {
        std::uint32_t generation = 0;
        int spins = 0;
        while ((generation = m_generation.load(std::memory_order_acquire)) == seen) {
            if (++spins < kSpins)
                relax();
            else
                m_generation.wait(seen, std::memory_order_acquire);
        }
        seen = generation;
        if (m_stop.load(std::memory_order_relaxed))
            return;
        (*m_task)(part);
        if (m_pending.fetch_sub(1, std::memory_order_acq_rel) == 1)
            m_pending.notify_one();
    }
}

void ThreadPool::run(const std::function<void(int)>& task)
{
    if (m_workers.empty()) {
        task(0);
        return;
    }
    m_task = &task;
    m_pending.store(static_cast<int>(m_workers.size()), std::memory_order_relaxed);
    m_generation.fetch_add(1, std::memory_order_release);
    m_generation.notify_all();
    task(0);
    int spins = 0;
    int pending = 0;
    while ((pending = m_pending.load(std::memory_order_acquire)) != 0) {
        if (++spins < kSpins)
            relax();
        else
            m_pending.wait(pending, std::memory_order_acquire);
    }
    m_task = nullptr;
}

std::pair<std::int64_t, std::int64_t> ThreadPool::share(std::int64_t count, int part, int parts, std::int64_t grain)
{
    grain = std::max<std::int64_t>(1, grain);
    const std::int64_t units = (count + grain - 1) / grain;
    const std::int64_t base = units / parts;
    const std::int64_t extra = units % parts;
    const std::int64_t first = part * base + std::min<std::int64_t>(part, extra);
    const std::int64_t last = first + base + (part < extra ? 1 : 0);
    return {std::min(count, first * grain), std::min(count, last * grain)};
}

void ThreadPool::parallelFor(std::int64_t count, std::int64_t grain,
                             const std::function<void(std::int64_t, std::int64_t, int)>& body)
{
    if (count <= 0)
        return;
    if (m_threads == 1 || count <= grain) {
        body(0, count, 0);
        return;
    }
    const int parts = m_threads;
    run([&](int part) {
        const auto [begin, end] = share(count, part, parts, grain);
        if (begin < end)
            body(begin, end, part);
    });
}

}  // namespace logitlab::engine::transformer
