// A fixed set of worker threads for the forward pass, started once with the model and kept
// until it is destroyed: no thread is started per operation. parallelFor() cuts a range into
// chunks that the calling thread and the workers claim one at a time from a shared counter, so
// a worker the system has descheduled (the machine is shared) holds up at most the chunk it
// claimed. Waiting threads spin briefly (the next operation usually follows within
// microseconds), then sleep on a futex (std::atomic::wait).
//
// Determinism is the caller's side of the contract: which thread computes a chunk varies from
// run to run, so what a chunk computes must depend on its range only, never on the thread or
// on the other chunks. The forward pass computes every output element with the same arithmetic
// whatever chunk holds it (matmul.h), so its results do not depend on the thread count.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

namespace logitlab::engine::transformer {

class ThreadPool {
public:
    // threads >= 1 (clamped): the calling thread plus threads - 1 workers.
    explicit ThreadPool(int threads);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int threads() const { return m_threads; }

    using Body = std::function<void(std::int64_t begin, std::int64_t end, int thread)>;
    // body(begin, end, thread) for the chunks [0, chunk), [chunk, 2 chunk), ... of [0, count),
    // each once, on any thread (`thread` in [0, threads()), 0 the caller: an index for per-thread
    // scratch). Returns when every chunk is done. With one thread, or count <= chunk, one call
    // on the calling thread covers the whole range. One call at a time.
    void parallelFor(std::int64_t count, std::int64_t chunk, const Body& body);

private:
    void work(int thread);
    void claimChunks(int thread);

    int m_threads = 1;
    std::vector<std::thread> m_workers;
    // Which operation is running (bumped to start one) and, packed with it, the next chunk:
    // (generation << 32) | chunk, so a worker that wakes late cannot claim a later operation's
    // chunk for an earlier one.
    std::atomic<std::uint32_t> m_generation{0};
    std::atomic<std::uint64_t> m_claim{0};
    std::atomic<std::int64_t> m_done{0};
    std::atomic<bool> m_stop{false};
    std::atomic<std::int64_t> m_chunks{0};  // read before a claim, so atomic
    // Read only after a successful claim, which orders them after the caller's writes.
    const Body* m_body = nullptr;
    std::int64_t m_count = 0;
    std::int64_t m_chunk = 1;
};

}  // namespace logitlab::engine::transformer
