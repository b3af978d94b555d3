#include "candidates.h"

#include "softmax_kernel.h"

#include <algorithm>
#include <bit>
#include <emmintrin.h>
#include <vector>

namespace logitlab::engine {

namespace {

// Scratch space reused across calls on the same thread: a fresh 1 MB vector per token costs
// page faults that show up in the per-token time at V = 128k.
// A probability and its id, sorted together.
struct Ranked {
    double p;
    std::int32_t id;
};

// Descending probability, lower id first on ties: the order a stable sort gives in the lesson.
bool rankedBefore(const Ranked& a, const Ranked& b)
{
    return a.p > b.p || (a.p == b.p && a.id < b.id);
}

struct Workspace {
    std::vector<double> probs;
    std::vector<std::int32_t> order;
    std::vector<Ranked> ranked;
};

Workspace& workspace()
{
    thread_local Workspace w;
    return w;
}

using detail::ExpHistogram;

// Fills `order` with a superset of the ids top-k / top-p can keep, every id whose exp is at least
// a threshold, and returns false when the histogram's buckets (exp_histogram.h) cannot bound the
// cut (the caller then selects over the whole vocabulary). The cut must end inside buckets
// 0..last; the ids of bucket last + 1 are gathered too, because two exps a rounding apart can
// divide to the same probability and the lesson orders equal probabilities by id: with the
// neighbour bucket in, every id ranked before the cut is in `order`, and every id left out ranks
// below all of buckets 0..last.
bool gatherByExp(const std::vector<double>& exps, const ExpHistogram& histogram, double sum, std::size_t limit,
                 const std::optional<double>& topP, std::vector<std::int32_t>& order)
{
    const std::size_t n = exps.size();
    constexpr std::size_t kBuckets = ExpHistogram::kBuckets;
    // The bucket sums add in another order than the final walk, so demand a margin far above
    // their rounding error before trusting that the nucleus ends inside the gathered buckets.
    constexpr double kMargin = 1e-9;
    double cumulative = 0.0;
    std::size_t taken = 0;
    std::size_t last = kBuckets;
    for (std::size_t b = 0; b + 2 < kBuckets; ++b) {
        for (std::size_t w = 0; w < ExpHistogram::kWays; ++w) {
            cumulative += histogram.mass[w][b];
            taken += histogram.count[w][b];
        }
        if (taken >= limit || (topP && cumulative / sum > *topP + kMargin)) {
            last = b;
            break;
        }
    }
    if (last == kBuckets)
        return false;
    const double threshold = ExpHistogram::lowerBound(last + 1);
    order.clear();
    // Eight exps compared at a time: most groups have no survivor, and one branch on the group's
    // mask is cheaper than one branch per id.
    const __m128d bound = _mm_set1_pd(threshold);
    constexpr std::size_t kGroup = 8;
    std::size_t j = 0;
    for (; j + kGroup <= n; j += kGroup) {
        int hits = 0;
        for (std::size_t pair = 0; pair < kGroup / 2; ++pair)
            hits |= _mm_movemask_pd(_mm_cmpge_pd(_mm_loadu_pd(exps.data() + j + 2 * pair), bound)) << (2 * pair);
        for (; hits != 0; hits &= hits - 1)
            order.push_back(static_cast<std::int32_t>(j + static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(hits)))));
    }
    for (; j < n; ++j)
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

    // top-k < 1 is refused by validateSettings(); should one arrive anyway, keep the argmax
    // rather than nothing (an empty list has no draw and no first survivor).
    const std::size_t limit = settings.topK ? std::min<std::size_t>(static_cast<std::size_t>(std::max(*settings.topK, 1)), n) : n;
    const bool cut = limit < n || settings.topP;

    Workspace& w = workspace();
    std::vector<double>& probs = w.probs;
    probs.resize(n);
    // The histogram that bounds the cut costs a little in the exp pass: only when there is a cut.
    ExpHistogram histogram;
    const double sum = cut ? detail::exponentiate(logits, n, settings.temperature, top, probs.data(), histogram)
                           : detail::exponentiate(logits, n, settings.temperature, probs.data());

    std::vector<std::int32_t>& order = w.order;
    // probs holds the exps; turn into probabilities (the lesson's e / sum) only what is read.
    std::vector<Ranked>& ranked = w.ranked;
    ranked.clear();
    if (cut && gatherByExp(probs, histogram, sum, limit, settings.topP, order)) {
        for (const std::int32_t id : order)
            ranked.push_back(Ranked{probs[static_cast<std::size_t>(id)] / sum, id});
    } else {
        ranked.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            ranked[i] = Ranked{probs[i] / sum, static_cast<std::int32_t>(i)};
    }
    // Sort only what can survive: the first `limit` of the gathered ids. The pairs carry their p,
    // so the comparisons read neighbouring memory instead of the whole vocabulary's array.
    const std::size_t sortable = std::min(limit, ranked.size());
    if (sortable == ranked.size())
        std::sort(ranked.begin(), ranked.end(), rankedBefore);
    else
        std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(sortable), ranked.end(),
                          rankedBefore);

    std::size_t kept = sortable;
    if (settings.topP) {
        double cumulative = 0.0;
        for (kept = 0; kept < sortable;) {
            cumulative += ranked[kept++].p;
            if (cumulative > *settings.topP)
                break;
        }
    }

    double total = 0.0;
    for (std::size_t i = 0; i < kept; ++i)
        total += ranked[i].p;

    CandidateList out;
    out.reserve(kept);
    for (std::size_t i = 0; i < kept; ++i)
        out.push_back(Candidate{ranked[i].id, ranked[i].p / total, ranked[i].p});
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
