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

// Probability buckets for finding the top-k / top-p prefix without sorting the vocabulary.
// The bit pattern of a positive double orders like its value, so dropping low mantissa bits
// gives monotone buckets of a quarter octave each: bucket 0 holds the largest probabilities.
// Every bucket boundary is a probability threshold, so "all buckets up to b" is exactly
// {i : p_i >= some tau}: a prefix of the sorted order, ties included.
constexpr int kBucketShift = 50;  // keep the exponent and the top two mantissa bits
constexpr std::size_t kBuckets = 1024;

std::uint16_t bucketOf(double p, std::uint64_t topKey)
{
    const std::uint64_t key = std::bit_cast<std::uint64_t>(p) >> kBucketShift;
    return static_cast<std::uint16_t>(std::min<std::uint64_t>(topKey - key, kBuckets - 1));
}

// Turns exps into probabilities and, in the same pass, histograms them by bucket. Then fills
// `order` with a superset of the ids top-k / top-p can keep: every id whose probability is at
// least that of the last token either filter could need. Returns false when the buckets cannot
// bound the cut (the caller then selects over the whole vocabulary).
bool normaliseAndGather(std::vector<double>& probs, double sum, std::size_t limit,
                        const std::optional<double>& topP, std::vector<std::int32_t>& order)
{
    const std::size_t n = probs.size();
    // The largest exp is exp(0) = 1, so the largest probability is exactly 1 / sum.
    const std::uint64_t topKey = std::bit_cast<std::uint64_t>(1.0 / sum) >> kBucketShift;
    std::array<double, kBuckets> mass{};
    std::array<std::uint32_t, kBuckets> count{};
    for (std::size_t i = 0; i < n; ++i) {
        probs[i] /= sum;
        const std::uint16_t b = bucketOf(probs[i], topKey);
        mass[b] += probs[i];
        ++count[b];
    }
    // The bucket sums add in another order than the final walk, so demand a margin far above
    // their rounding error before trusting that the nucleus ends inside the gathered buckets.
    constexpr double kMargin = 1e-9;
    double cumulative = 0.0;
    std::size_t taken = 0;
    std::size_t last = kBuckets;
    for (std::size_t b = 0; b + 1 < kBuckets; ++b) {
        cumulative += mass[b];
        taken += count[b];
        if (taken >= limit || (topP && cumulative > *topP + kMargin)) {
            last = b;
            break;
        }
    }
    if (last == kBuckets)
        return false;
    order.clear();
    for (std::size_t i = 0; i < n; ++i)
        if (bucketOf(probs[i], topKey) <= last)
            order.push_back(static_cast<std::int32_t>(i));
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
    bool gathered = false;
    if (cut)
        gathered = normaliseAndGather(probs, sum, limit, settings.topP, order);
    else
        detail::normalise(probs.data(), n, sum);
    if (!gathered) {
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
