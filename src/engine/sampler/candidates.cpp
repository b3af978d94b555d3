#include "engine/sampler/candidates.h"

#include "engine/kernels/exp_histogram.h"
#include "engine/kernels/lesson_divide.h"
#include "engine/kernels/lesson_exp_sum.h"
#include "engine/kernels/ranked.h"
#include "engine/kernels/softmax_kernel.h"

#include <algorithm>
#include <type_traits>
#include <vector>

namespace logitlab::engine {

namespace {

using detail::Ranked;
using detail::rankedBefore;

// Scratch space reused across calls on the same thread: a fresh 1 MB vector per token costs
// page faults that show up in the per-token time at V = 128k.
struct Workspace {
    std::vector<double> probs;
    std::vector<Ranked> ranked;
    std::vector<Ranked> sortScratch;
    std::vector<double> sample;  // every kExpSampleStride-th exp, from the exp pass
};

Workspace& workspace()
{
    thread_local Workspace w;
    return w;
}

using detail::ExpHistogram;

// Gathers (value, id) for every value at least a threshold, in id order: from the values, or,
// when they are the exps of float32 logits, by a scan of the logits (gatherAtLeastByLogit).
struct Gatherer {
    const std::vector<double>& values;
    const float* logits = nullptr;  // the float32 logits `values` are the exps of, if any
    double temperature = 1.0;
    double maxScaled = 0.0;

    void operator()(double threshold, std::vector<Ranked>& gathered) const
    {
        if (logits != nullptr)
            if (const auto floor = detail::logitFloor(threshold, temperature, maxScaled)) {
                detail::gatherAtLeastByLogit(logits, values, *floor, threshold, gathered);
                return;
            }
        detail::gatherAtLeast(values, threshold, gathered);
    }
};

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

// Gathers every id whose exp reaches bucket `reach`'s lower bound and returns true when their exact
// histogram (complete for buckets 0..reach) places the cut inside buckets 0..reach - 1; `gathered`
// then keeps the ids down to the bucket after the cut's, because two exps a rounding apart can
// divide to the same probability and the lesson orders equal probabilities by id: with the
// neighbour bucket in, every id ranked before the cut is gathered, and every id left out ranks
// below all of them.
bool gatherDownTo(const Gatherer& gather, std::size_t reach, double sum, std::size_t limit,
                  const std::optional<double>& topP, std::vector<Ranked>& gathered)
{
    gather(ExpHistogram::lowerBound(reach), gathered);
    ExpHistogram exact;
    for (const Ranked& r : gathered)
        exact.add(&r.p, 1);
    const std::size_t last = cutBucket(exact, sum, limit, topP);
    if (last + 1 > reach)
        return false;
    const double threshold = ExpHistogram::lowerBound(last + 1);
    std::erase_if(gathered, [&](const Ranked& r) { return r.p < threshold; });
    return true;
}

// The sample's guess of a bucket the cut ends above, with room to spare: for top-k, where the
// sample counts twice the limit (plus kSpareIds); for top-p, where the mass below it is four
// fifths of the 1 - top-p the cut leaves out. The mass is read from the bottom because the
// sample's tail, made of many light ids, estimates its mass well; its head may miss (or
// over-count) the few heavy ids. Four fifths rather than half: at the lesson's step (V = 128,256,
// T = 0.7, top-p 0.9) the gather then takes 3,202 ids instead of 5,712 for the 2,549 the cut
// needs, and every id gathered is read, histogrammed and filtered (docs/benchmarks.md). A guess
// that falls short costs a second gather, never a wrong answer (gatherDownTo checks it).
std::size_t guessReach(const ExpHistogram& sample, std::size_t stride, double sum, std::size_t limit, std::size_t n,
                       const std::optional<double>& topP)
{
    constexpr std::size_t kBuckets = ExpHistogram::kBuckets;
    constexpr std::size_t kSpareIds = 64;
    std::size_t reach = kBuckets;
    if (limit < n)
        reach = cutBucket(sample, sum, 2 * ((limit + stride - 1) / stride) + kSpareIds / stride, std::nullopt);
    if (topP) {
        const double leftOut = 0.8 * (1.0 - *topP) * sum;
        double below = 0.0;
        for (std::size_t b = kBuckets; b-- > 0;) {
            for (std::size_t w = 0; w < ExpHistogram::kWays; ++w)
                below += sample.mass[w][b] * static_cast<double>(stride);
            if (below > leftOut) {
                reach = std::min(reach, b + 1);
                break;
            }
        }
    }
    return std::max<std::size_t>(reach, 1);
}

// Fills `gathered` with (exp, id) for a superset of the ids top-k / top-p can keep, every id whose
// exp is at least a threshold (gatherDownTo), and returns false when the histogram's buckets cannot
// bound the cut (the caller then selects over the whole vocabulary).
//
// Why a sample first: a histogram of every exp costs a third of the exp pass, and the nucleus is
// usually a small share of the vocabulary. Every kStride-th exp, counted kStride times, guesses
// where the cut ends (guessReach); the ids down to there are gathered, and their exact histogram
// must place the cut inside them. A guess can fall short, so then the ids of the buckets that hold
// roughly the top n / kShare ids are tried, and when the nucleus is larger than that, the histogram
// of every exp decides.
bool gatherCut(const Gatherer& gather, const std::vector<double>& strided, double sum, std::size_t limit,
               const std::optional<double>& topP, std::vector<Ranked>& gathered)
{
    const std::vector<double>& exps = gather.values;
    constexpr std::size_t kBuckets = ExpHistogram::kBuckets;
    constexpr std::size_t kStride = detail::kExpSampleStride;
    constexpr std::size_t kShare = 8;
    const std::size_t n = exps.size();
    if (n >= 64 * kStride) {
        ExpHistogram sample;
        sample.add(strided.data(), strided.size());
        const std::size_t guess = guessReach(sample, kStride, sum, limit, n, topP);
        const std::size_t wide = std::max<std::size_t>(1, cutBucket(sample, sum, n / kShare / kStride, std::nullopt));
        if (guess < wide && gatherDownTo(gather, guess, sum, limit, topP, gathered))
            return true;
        if (wide + 2 < kBuckets && gatherDownTo(gather, wide, sum, limit, topP, gathered))
            return true;
    }
    ExpHistogram all;
    all.add(exps.data(), n);
    const std::size_t last = cutBucket(all, sum, limit, topP);
    if (last == kBuckets)
        return false;
    gather(ExpHistogram::lowerBound(last + 1), gathered);
    return true;
}

// The cut, the sort and the walk over `values`: the exps and their sum, or probabilities with a
// sum of 1 (dividing by 1 is exact, so either way p is the lesson's e / sum). `sample` holds
// every kExpSampleStride-th value.
CandidateList select(const Gatherer& gather, double sum, const SamplerSettings& settings,
                     const std::vector<double>& sample)
{
    const std::vector<double>& values = gather.values;
    const std::size_t n = values.size();
    // top-k < 1 is refused by validateSettings(); should one arrive anyway, keep the argmax
    // rather than nothing (an empty list has no draw and no first survivor).
    const std::size_t limit =
        settings.topK ? std::min<std::size_t>(static_cast<std::size_t>(std::max(*settings.topK, 1)), n) : n;
    const bool cut = limit < n || settings.topP;

    // Turn into probabilities only what is read.
    std::vector<Ranked>& ranked = workspace().ranked;
    if (cut && gatherCut(gather, sample, sum, limit, settings.topP, ranked)) {
        if (!ranked.empty())
            detail::divideMemberBy(&ranked.front().p, ranked.size(), sizeof(Ranked), sum);
    } else {
        ranked.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            ranked[i] = Ranked{values[i], static_cast<std::int32_t>(i)};
        if (n != 0)
            detail::divideMemberBy(&ranked.front().p, n, sizeof(Ranked), sum);
    }
    // Sort only what can survive: the first `limit` of the gathered ids (all of them when that is
    // most; a partial sort when top-k keeps few of many).
    const std::size_t sortable = std::min(limit, ranked.size());
    if (sortable * 8 >= ranked.size())
        detail::sortRanked(ranked, workspace().sortScratch);
    else
        std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(sortable), ranked.end(),
                          rankedBefore);

    // The survivors' total, in rank order: the top-p walk's running sum where it stops is that
    // sum already (the same terms added in the same order from 0).
    std::size_t kept = sortable;
    double total = 0.0;
    if (settings.topP) {
        for (kept = 0; kept < sortable;) {
            total += ranked[kept++].p;
            if (total > *settings.topP)
                break;
        }
    } else {
        for (std::size_t i = 0; i < kept; ++i)
            total += ranked[i].p;
    }

    CandidateList out;
    out.reserve(kept);
    for (std::size_t i = 0; i < kept; ++i)
        out.push_back(Candidate{ranked[i].id, ranked[i].p, ranked[i].p});
    if (kept != 0)
        detail::divideMemberBy(&out.front().p, kept, sizeof(Candidate), total);
    return out;
}

template <class Scalar>
CandidateList candidatesOf(const Scalar* logits, std::size_t n, const SamplerSettings& settings)
{
    if (n == 0)
        return {};
    const std::int32_t top = detail::argmaxOf(logits, n);
    if (settings.temperature == 0.0 ||
        detail::scaledMaxOverflows(static_cast<double>(logits[top]), settings.temperature))
        return {Candidate{top, 1.0, 1.0}};
    std::vector<double>& exps = workspace().probs;
    exps.resize(n);
    const double maxScaled = static_cast<double>(logits[top]) / settings.temperature;
    std::vector<double>& sample = workspace().sample;
    sample.resize((n + detail::kExpSampleStride - 1) / detail::kExpSampleStride);
    const double sum =
        detail::lessonExpSum(logits, n, settings.temperature, maxScaled, exps.data(), ExpPath::Auto, sample.data());
    if constexpr (std::is_same_v<Scalar, float>)
        return select(Gatherer{exps, logits, settings.temperature, maxScaled}, sum, settings, sample);
    else
        return select(Gatherer{exps}, sum, settings, sample);
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
    // The sample the exp pass would have copied (lesson_exp_sum.h).
    std::vector<double>& sample = workspace().sample;
    sample.clear();
    for (std::size_t i = 0; i < probabilities.size(); i += detail::kExpSampleStride)
        sample.push_back(probabilities[i]);
    return select(Gatherer{probabilities}, 1.0, settings, sample);
}

}  // namespace logitlab::engine
