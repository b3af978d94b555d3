#include "candidates.h"

#include "softmax_kernel.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <vector>

namespace logitlab::engine {

namespace {

// Scratch space reused across calls on the same thread: a fresh 1 MB vector per token costs
// page faults that show up in the per-token time at V = 128k.
struct Workspace {
    std::vector<double> probs;
    std::vector<std::int32_t> order;
};

Workspace& workspace()
{
    thread_local Workspace w;
    return w;
}

// Buckets for finding the top-k / top-p prefix without sorting the vocabulary. They sort the
// exps e = exp(l/T - max), not the probabilities: p = e / sum orders like e, and dividing only the
// few ids that can survive saves a division per token. The bit pattern of a positive double
// orders like its value, so dropping low mantissa bits gives monotone buckets of a quarter
// octave each; bucket 0 holds the largest exps (the largest is exp(0) = 1), the last everything
// below 2^-64 of it.
constexpr int kBucketShift = 50;  // keep the exponent and the top two mantissa bits
constexpr std::size_t kBuckets = 256;
constexpr std::uint64_t kTopKey = std::bit_cast<std::uint64_t>(1.0) >> kBucketShift;

std::size_t bucketOf(double e)
{
    const std::uint64_t key = std::bit_cast<std::uint64_t>(e) >> kBucketShift;
    return static_cast<std::size_t>(std::min<std::uint64_t>(kTopKey - key, kBuckets - 1));
}

// Fills `order` with a superset of the ids top-k / top-p can keep, every id whose exp is at least
// a threshold, and returns false when the buckets cannot bound the cut (the caller then selects
// over the whole vocabulary). The cut must end inside buckets 0..last; the ids of bucket last + 1
// are gathered too, because two exps a rounding apart can divide to the same probability and the
// lesson orders equal probabilities by id: with the neighbour bucket in, every id ranked before
// the cut is in `order`, and every id left out ranks below all of buckets 0..last.
bool gatherByExp(const std::vector<double>& exps, double sum, std::size_t limit, const std::optional<double>& topP,
                 std::vector<std::int32_t>& order)
{
    const std::size_t n = exps.size();
    // Four interleaved histograms: consecutive ids often share a bucket, and one histogram would
    // chain every update on the previous one through memory.
    constexpr std::size_t kWays = 4;
    std::array<std::array<double, kBuckets>, kWays> mass{};
    std::array<std::array<std::uint32_t, kBuckets>, kWays> count{};
    std::size_t i = 0;
    for (; i + kWays <= n; i += kWays)
        for (std::size_t w = 0; w < kWays; ++w) {
            const std::size_t b = bucketOf(exps[i + w]);
            mass[w][b] += exps[i + w];
            ++count[w][b];
        }
    for (; i < n; ++i) {
        const std::size_t b = bucketOf(exps[i]);
        mass[0][b] += exps[i];
        ++count[0][b];
    }
    // The bucket sums add in another order than the final walk, so demand a margin far above
    // their rounding error before trusting that the nucleus ends inside the gathered buckets.
    constexpr double kMargin = 1e-9;
    double cumulative = 0.0;
    std::size_t taken = 0;
    std::size_t last = kBuckets;
    for (std::size_t b = 0; b + 2 < kBuckets; ++b) {
        for (std::size_t w = 0; w < kWays; ++w) {
            cumulative += mass[w][b];
            taken += count[w][b];
        }
        if (taken >= limit || (topP && cumulative / sum > *topP + kMargin)) {
            last = b;
            break;
        }
    }
    if (last == kBuckets)
        return false;
    const double threshold = std::bit_cast<double>((kTopKey - (last + 1)) << kBucketShift);
    order.clear();
    for (std::size_t j = 0; j < n; ++j)
        if (exps[j] >= threshold)
            order.push_back(static_cast<std::int32_t>(j));
    return true;
}

template <class Scalar>
CandidateList candidatesOf(const Scalar* logits, std::size_t n, const SamplerSettings& settings)
{
    if (n == 0)
        return {};
    const std::int32_t top = detail::argmaxOf(logits, n);
    if (settings.temperature == 0.0 || detail::scaledMaxOverflows(static_cast<double>(logits[top]), settings.temperature))
        return {Candidate{top, 1.0, 1.0}};

    Workspace& w = workspace();
    std::vector<double>& probs = w.probs;
    probs.resize(n);
    const double sum = detail::exponentiate(logits, n, settings.temperature, probs.data());

    // Descending probability, lower id first on ties: the order a stable sort gives in the lesson.
    const auto before = [&probs](std::int32_t a, std::int32_t b) {
        return probs[a] > probs[b] || (probs[a] == probs[b] && a < b);
    };
    // top-k < 1 is refused by validateSettings(); should one arrive anyway, keep the argmax
    // rather than nothing (an empty list has no draw and no first survivor).
    const std::size_t limit = settings.topK ? std::min<std::size_t>(static_cast<std::size_t>(std::max(*settings.topK, 1)), n) : n;
    const bool cut = limit < n || settings.topP;

    std::vector<std::int32_t>& order = w.order;
    // probs holds the exps; turn into probabilities (the lesson's e / sum) only what is read.
    if (cut && gatherByExp(probs, sum, limit, settings.topP, order)) {
        for (const std::int32_t id : order)
            probs[static_cast<std::size_t>(id)] /= sum;
    } else {
        detail::normalise(probs.data(), n, sum);
        order.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            order[i] = static_cast<std::int32_t>(i);
    }
    // Sort only what can survive: the first `limit` of the gathered ids.
    const std::size_t sortable = std::min(limit, order.size());
    if (sortable == order.size())
        std::sort(order.begin(), order.end(), before);
    else
        std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(sortable), order.end(), before);

    std::size_t kept = sortable;
    if (settings.topP) {
        double cumulative = 0.0;
        for (kept = 0; kept < sortable;) {
            cumulative += probs[order[kept++]];
            if (cumulative > *settings.topP)
                break;
        }
    }

    double total = 0.0;
    for (std::size_t i = 0; i < kept; ++i)
        total += probs[order[i]];

    CandidateList out;
    out.reserve(kept);
    for (std::size_t i = 0; i < kept; ++i) {
        const double p = probs[order[i]];
        out.push_back(Candidate{order[i], p / total, p});
    }
    return out;
}

}  // namespace

CandidateList candidates(const Eigen::Ref<const Eigen::ArrayXd>& logits, const SamplerSettings& settings)
{
    return candidatesOf(logits.data(), static_cast<std::size_t>(logits.size()), settings);
}

CandidateList candidates(const Eigen::Ref<const Eigen::ArrayXf>& logits, const SamplerSettings& settings)
{
    return candidatesOf(logits.data(), static_cast<std::size_t>(logits.size()), settings);
}

}  // namespace logitlab::engine
