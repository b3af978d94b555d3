#include "candidates.h"

#include "exp_histogram.h"
#include "softmax_kernel.h"

#include <algorithm>
#include <bit>
#include <emmintrin.h>
#include <vector>

namespace logitlab::engine {

namespace {

// A probability (or, while gathering, an exp) and its id, sorted together.
struct Ranked {
    // Does nothing, so that growing the workspace's vector does not zero what is written next.
    Ranked() {}
    Ranked(double value, std::int32_t token) : p(value), id(token) {}
    double p;
    std::int32_t id;
};

// Descending probability, lower id first on ties: the order a stable sort gives in the lesson.
bool rankedBefore(const Ranked& a, const Ranked& b)
{
    return a.p > b.p || (a.p == b.p && a.id < b.id);
}

// Scratch space reused across calls on the same thread: a fresh 1 MB vector per token costs
// page faults that show up in the per-token time at V = 128k.
struct Workspace {
    std::vector<double> probs;
    std::vector<Ranked> ranked;
};

Workspace& workspace()
{
    thread_local Workspace w;
    return w;
}

using detail::ExpHistogram;

// The bucket sums add in another order than the final walk, so a cut is trusted to end inside a
// bucket only with a margin far above their rounding error.
constexpr double kMargin = 1e-9;

// The first bucket (exp_histogram.h) by which the histogram's ids reach top-k's `limit` or
// top-p's mass; kBuckets when none before the last two does.
std::size_t cutBucket(const ExpHistogram& histogram, double sum, std::size_t limit, const std::optional<double>& topP)
{
    double cumulative = 0.0;
    std::size_t taken = 0;
    for (std::size_t b = 0; b + 2 < ExpHistogram::kBuckets; ++b) {
        for (std::size_t w = 0; w < ExpHistogram::kWays; ++w) {
            cumulative += histogram.mass[w][b];
            taken += histogram.count[w][b];
        }
        if (taken >= limit || (topP && cumulative / sum > *topP + kMargin))
            return b;
    }
    return ExpHistogram::kBuckets;
}

// Fills `gathered` with (exp, id) for every id whose exp is at least `threshold`, in id order.
void gatherAtLeast(const std::vector<double>& exps, double threshold, std::vector<Ranked>& gathered)
{
    const std::size_t n = exps.size();
    gathered.resize(n);
    std::size_t count = 0;
    // Eight exps compared at a time: most groups have no survivor and cost one branch; a group
    // with some is written without a branch per id (where survivors are dense, those branches
    // would be mispredicted half the time).
    const __m128d bound = _mm_set1_pd(threshold);
    constexpr std::size_t kGroup = 8;
    std::size_t j = 0;
    for (; j + kGroup <= n; j += kGroup) {
        const double* e = exps.data() + j;
        const int hits = _mm_movemask_pd(_mm_cmpge_pd(_mm_loadu_pd(e), bound))
                         | _mm_movemask_pd(_mm_cmpge_pd(_mm_loadu_pd(e + 2), bound)) << 2
                         | _mm_movemask_pd(_mm_cmpge_pd(_mm_loadu_pd(e + 4), bound)) << 4
                         | _mm_movemask_pd(_mm_cmpge_pd(_mm_loadu_pd(e + 6), bound)) << 6;
        if (hits == 0)
            continue;
        for (std::size_t t = 0; t < kGroup; ++t) {
            gathered[count] = Ranked{exps[j + t], static_cast<std::int32_t>(j + t)};
            count += static_cast<std::size_t>((hits >> t) & 1);
        }
    }
    for (; j < n; ++j)
        if (exps[j] >= threshold)
            gathered[count++] = Ranked{exps[j], static_cast<std::int32_t>(j)};
    gathered.resize(count);
}

// Fills `gathered` with (exp, id) for a superset of the ids top-k / top-p can keep, every id whose
// exp is at least a threshold, and returns false when the histogram's buckets cannot bound the cut (the caller
// then selects over the whole vocabulary). The cut must end inside buckets 0..last; the ids of
// bucket last + 1 are gathered too, because two exps a rounding apart can divide to the same
// probability and the lesson orders equal probabilities by id: with the neighbour bucket in, every
// id ranked before the cut is gathered, and every id left out ranks below all of buckets 0..last.
//
// Why a sample first: a histogram of every exp costs a third of the exp pass, and the nucleus is
// usually a small share of the vocabulary. Every kStride-th exp, counted kStride times, shows
// roughly which buckets hold the top n / kShare ids; those ids are gathered, and their exact
// histogram (complete for those buckets) must place the cut inside them. (A sample is no guide
// to where the cut ends: it misses the few heavy ids at the top, or counts one of them kStride
// times.) When the exact histogram does not place it (a nucleus of more than about n / kShare
// ids), the histogram of every exp decides.
bool gatherCut(const std::vector<double>& exps, double sum, std::size_t limit, const std::optional<double>& topP,
               std::vector<Ranked>& gathered)
{
    constexpr std::size_t kBuckets = ExpHistogram::kBuckets;
    constexpr std::size_t kStride = 16;
    constexpr std::size_t kShare = 8;
    const std::size_t n = exps.size();
    if (n >= 64 * kStride) {
        ExpHistogram sample;
        for (std::size_t i = 0; i < n; i += kStride)
            sample.add(exps.data() + i, 1);
        const std::size_t reach = std::max<std::size_t>(1, cutBucket(sample, sum, n / kShare / kStride, std::nullopt));
        if (reach + 2 < kBuckets) {
            gatherAtLeast(exps, ExpHistogram::lowerBound(reach), gathered);
            ExpHistogram exact;
            for (const Ranked& r : gathered)
                exact.add(&r.p, 1);
            const std::size_t last = cutBucket(exact, sum, limit, topP);
            if (last + 1 <= reach) {
                const double threshold = ExpHistogram::lowerBound(last + 1);
                std::erase_if(gathered, [&](const Ranked& r) { return r.p < threshold; });
                return true;
            }
        }
    }
    ExpHistogram all;
    all.add(exps.data(), n);
    const std::size_t last = cutBucket(all, sum, limit, topP);
    if (last == kBuckets)
        return false;
    gatherAtLeast(exps, ExpHistogram::lowerBound(last + 1), gathered);
    return true;
}

// The cut, the sort and the walk over `values`: the exps and their sum, or probabilities with a
// sum of 1 (dividing by 1 is exact, so either way p is the lesson's e / sum).
CandidateList select(const std::vector<double>& values, double sum, const SamplerSettings& settings)
{
    const std::size_t n = values.size();
    // top-k < 1 is refused by validateSettings(); should one arrive anyway, keep the argmax
    // rather than nothing (an empty list has no draw and no first survivor).
    const std::size_t limit = settings.topK ? std::min<std::size_t>(static_cast<std::size_t>(std::max(*settings.topK, 1)), n) : n;
    const bool cut = limit < n || settings.topP;

    // Turn into probabilities only what is read.
    std::vector<Ranked>& ranked = workspace().ranked;
    if (cut && gatherCut(values, sum, limit, settings.topP, ranked)) {
        for (Ranked& r : ranked)
            r.p /= sum;
    } else {
        ranked.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            ranked[i] = Ranked{values[i] / sum, static_cast<std::int32_t>(i)};
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

template <class Scalar>
CandidateList candidatesOf(const Scalar* logits, std::size_t n, const SamplerSettings& settings)
{
    if (n == 0)
        return {};
    const std::int32_t top = detail::argmaxOf(logits, n);
    if (settings.temperature == 0.0 || detail::scaledMaxOverflows(static_cast<double>(logits[top]), settings.temperature))
        return {Candidate{top, 1.0, 1.0}};
    std::vector<double>& exps = workspace().probs;
    exps.resize(n);
    const double sum = detail::exponentiate(logits, n, settings.temperature, top, exps.data());
    return select(exps, sum, settings);
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

CandidateList candidatesFromProbabilities(const std::vector<double>& probabilities, const SamplerSettings& settings)
{
    if (probabilities.empty() || settings.temperature == 0.0)
        return {};
    return select(probabilities, 1.0, settings);
}

}  // namespace logitlab::engine
