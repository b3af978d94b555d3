#include "engine/transformer/thread_pool.h"

#include <algorithm>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace logitlab::engine::transformer {

namespace {

// About 50 us of spinning on a current x86 core before a thread goes to sleep: longer than the
// gap between two operations of one token, far shorter than a scheduler's time slice.
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
    for (int thread = 1; thread < m_threads; ++thread)
        m_workers.emplace_back([this, thread] { work(thread); });
}

ThreadPool::~ThreadPool()
{
    m_stop.store(true, std::memory_order_relaxed);
    m_generation.fetch_add(1, std::memory_order_release);
    m_generation.notify_all();
    for (auto& worker : m_workers)
        worker.join();
}

void ThreadPool::claimChunks(int thread)
{
    std::uint64_t claim = m_claim.load(std::memory_order_acquire);
    const std::uint64_t generation = claim >> 32;
    for (;;) {
        if ((claim >> 32) != generation)
            return;
        const auto index = static_cast<std::int64_t>(claim & 0xffffffffu);
        if (index >= m_chunks.load(std::memory_order_relaxed))
            return;
        if (!m_claim.compare_exchange_weak(claim, claim + 1, std::memory_order_acq_rel, std::memory_order_acquire))
            continue;
        const std::int64_t begin = index * m_chunk;
        (*m_body)(begin, std::min(m_count, begin + m_chunk), thread);
        m_done.fetch_add(1, std::memory_order_acq_rel);
        claim = m_claim.load(std::memory_order_acquire);
    }
}

void ThreadPool::work(int thread)
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
        claimChunks(thread);
    }
}

void ThreadPool::parallelFor(std::int64_t count, std::int64_t chunk, const Body& body)
{
    if (count <= 0)
        return;
    chunk = std::max<std::int64_t>(1, chunk);
    if (m_workers.empty() || count <= chunk) {
        body(0, count, 0);
        return;
    }
    chunk = std::max(chunk, (count + 0xfffffffd) / 0xfffffffe);  // chunk indices fit 32 bits
    const std::int64_t chunks = (count + chunk - 1) / chunk;
    const std::uint32_t generation = m_generation.load(std::memory_order_relaxed) + 1;
    const std::uint64_t first = static_cast<std::uint64_t>(generation) << 32;
    // Exhausted first, so a worker still holding the previous operation's claim cannot take one
    // while the parameters change.
    m_claim.store(first | 0xffffffffu, std::memory_order_seq_cst);
    m_body = &body;
    m_count = count;
    m_chunk = chunk;
    m_chunks.store(chunks, std::memory_order_relaxed);
    m_done.store(0, std::memory_order_relaxed);
    m_claim.store(first, std::memory_order_release);
    m_generation.store(generation, std::memory_order_release);
    m_generation.notify_all();
    claimChunks(0);
    int spins = 0;
    while (m_done.load(std::memory_order_acquire) != chunks) {
        if (++spins < kSpins)
            relax();
        else
            std::this_thread::yield();
    }
    m_body = nullptr;
}

}  // namespace logitlab::engine::transformer
