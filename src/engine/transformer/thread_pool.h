// A fixed set of worker threads for the forward pass, started once with the model and kept
// until it is destroyed: a product hands every thread its part and waits for all of them, with
// no thread started per operation. Waiting threads spin briefly (the next product usually
// follows within microseconds), then sleep on a futex (std::atomic::wait).
//
// Determinism is the caller's side of the contract: run() calls task(part) once per part, and
// what part p computes must depend on p and the inputs only (share() gives each part a fixed
// contiguous range). The forward pass computes every output element on one thread with the
// same arithmetic whatever the part boundaries are, so its results do not depend on the count.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>
#include <utility>
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

    // Calls task(part) for every part in [0, threads()), part 0 on the calling thread, and
    // returns when every call has returned. Not reentrant: one run at a time.
    void run(const std::function<void(int part)>& task);

    // Part `part` of `parts` of [0, count): contiguous, in whole multiples of `grain` except
    // the last, the earlier parts no smaller than the later ones.
    static std::pair<std::int64_t, std::int64_t> share(std::int64_t count, int part, int parts,
                                                       std::int64_t grain = 1);

    // run() with each part given its share of [0, count): body(begin, end, part); empty shares
    // are skipped. With one thread, or count <= grain, everything runs on the calling thread.
    void parallelFor(std::int64_t count, std::int64_t grain,
                     const std::function<void(std::int64_t begin, std::int64_t end, int part)>& body);

private:
    void work(int part);

    int m_threads = 1;
    std::vector<std::thread> m_workers;
    std::atomic<std::uint32_t> m_generation{0};
    std::atomic<int> m_pending{0};
    std::atomic<bool> m_stop{false};
    const std::function<void(int)>* m_task = nullptr;
};

}  // namespace logitlab::engine::transformer
