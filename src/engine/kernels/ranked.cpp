#include "engine/kernels/ranked.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <emmintrin.h>
#include <immintrin.h>
#include <limits>

namespace logitlab::engine::detail {

namespace {

// Why a mask of hits per group and a loop over its set bits: most groups have no survivor and cost
// one well-predicted branch, and a group with some costs a loop over those alone. (Writing every
// id of a group branch-free costs more once survivors are a few per cent of the vocabulary, as
// they are when the cut is guessed tightly.) A hit is kept where its value reaches the threshold,
// without a branch: always for a gather of the values themselves, nearly always for a gather by
// logit (the floor is within a hair of the threshold's logit).
void appendHits(const double* e, std::size_t first, std::uint32_t hits, double threshold, std::vector<Ranked>& gathered,
                std::size_t& count)
{
    while (hits != 0) {
        const unsigned t = static_cast<unsigned>(std::countr_zero(hits));
        gathered[count] = Ranked{e[t], static_cast<std::int32_t>(first + t)};
        count += e[t] >= threshold ? 1 : 0;
        hits &= hits - 1;
    }
}

// The last values, fewer than a group, one at a time.
std::size_t appendRest(const double* values, std::size_t from, std::size_t n, double threshold,
                       std::vector<Ranked>& gathered, std::size_t count)
{
    for (std::size_t j = from; j < n; ++j)
        if (values[j] >= threshold)
            gathered[count++] = Ranked{values[j], static_cast<std::int32_t>(j)};
    return count;
}

__attribute__((target("avx2"))) inline std::uint32_t hitsOf4(const double* e, __m256d bound)
{
    return static_cast<std::uint32_t>(_mm256_movemask_pd(_mm256_cmp_pd(_mm256_loadu_pd(e), bound, _CMP_GE_OQ)));
}

// Sixteen values per group, four compares of four lanes.
__attribute__((target("avx2"))) std::size_t gatherAvx2(const double* values, std::size_t n, double threshold,
                                                       std::vector<Ranked>& gathered)
{
    const __m256d bound = _mm256_set1_pd(threshold);
    std::size_t count = 0;
    std::size_t j = 0;
    for (; j + 16 <= n; j += 16) {
        const double* e = values + j;
        const std::uint32_t hits =
            hitsOf4(e, bound) | hitsOf4(e + 4, bound) << 4 | hitsOf4(e + 8, bound) << 8 | hitsOf4(e + 12, bound) << 12;
        appendHits(e, j, hits, threshold, gathered, count);
    }
    return appendRest(values, j, n, threshold, gathered, count);
}

inline std::uint32_t hitsOf2(const double* e, __m128d bound)
{
    return static_cast<std::uint32_t>(_mm_movemask_pd(_mm_cmpge_pd(_mm_loadu_pd(e), bound)));
}

// Eight values per group on SSE2, two lanes a compare.
std::size_t gatherSse2(const double* values, std::size_t n, double threshold, std::vector<Ranked>& gathered)
{
    const __m128d bound = _mm_set1_pd(threshold);
    std::size_t count = 0;
    std::size_t j = 0;
    for (; j + 8 <= n; j += 8) {
        const double* e = values + j;
        const std::uint32_t hits =
            hitsOf2(e, bound) | hitsOf2(e + 2, bound) << 2 | hitsOf2(e + 4, bound) << 4 | hitsOf2(e + 6, bound) << 6;
        appendHits(e, j, hits, threshold, gathered, count);
    }
    return appendRest(values, j, n, threshold, gathered, count);
}

std::size_t appendRestByLogit(const float* logits, const double* exps, std::size_t from, std::size_t n, float floor,
                              double threshold, std::vector<Ranked>& gathered, std::size_t count)
{
    for (std::size_t j = from; j < n; ++j)
        if (logits[j] >= floor && exps[j] >= threshold)
            gathered[count++] = Ranked{exps[j], static_cast<std::int32_t>(j)};
    return count;
}

__attribute__((target("avx2"))) inline std::uint32_t hitsOf8(const float* l, __m256 floor)
{
    return static_cast<std::uint32_t>(_mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(l), floor, _CMP_GE_OQ)));
}

// Thirty-two logits per group, four compares of eight lanes.
__attribute__((target("avx2"))) std::size_t gatherByLogitAvx2(const float* logits, const double* exps, std::size_t n,
                                                              float floor, double threshold,
                                                              std::vector<Ranked>& gathered)
{
    const __m256 bound = _mm256_set1_ps(floor);
    std::size_t count = 0;
    std::size_t j = 0;
    for (; j + 32 <= n; j += 32) {
        const float* l = logits + j;
        const std::uint32_t hits = hitsOf8(l, bound) | hitsOf8(l + 8, bound) << 8 | hitsOf8(l + 16, bound) << 16 |
                                   hitsOf8(l + 24, bound) << 24;
        if (hits != 0)
            appendHits(exps + j, j, hits, threshold, gathered, count);
    }
    return appendRestByLogit(logits, exps, j, n, floor, threshold, gathered, count);
}

inline std::uint32_t hitsOf4(const float* l, __m128 floor)
{
    return static_cast<std::uint32_t>(_mm_movemask_ps(_mm_cmpge_ps(_mm_loadu_ps(l), floor)));
}

// Sixteen logits per group on SSE2.
std::size_t gatherByLogitSse2(const float* logits, const double* exps, std::size_t n, float floor, double threshold,
                              std::vector<Ranked>& gathered)
{
    const __m128 bound = _mm_set1_ps(floor);
    std::size_t count = 0;
    std::size_t j = 0;
    for (; j + 16 <= n; j += 16) {
        const float* l = logits + j;
        const std::uint32_t hits =
            hitsOf4(l, bound) | hitsOf4(l + 4, bound) << 4 | hitsOf4(l + 8, bound) << 8 | hitsOf4(l + 12, bound) << 12;
        if (hits != 0)
            appendHits(exps + j, j, hits, threshold, gathered, count);
    }
    return appendRestByLogit(logits, exps, j, n, floor, threshold, gathered, count);
}

// Below this many items a comparison sort is as quick as the buckets.
constexpr std::size_t kBucketsFrom = 64;
// Buckets up to this size are finished by one insertion sort over the whole array (each item
// moves within its bucket only, so at most this many places); a larger one would make that
// quadratic, and each bucket is then sorted on its own.
constexpr std::uint32_t kInsertionBucket = 32;

// Descending p, as an ascending key: the bits of a double >= +0 order like its value.
std::uint64_t descendingKey(const Ranked& r) { return ~std::bit_cast<std::uint64_t>(r.p); }

// Stable: an item moves past strictly greater keys only, so equal ones keep their id order.
void insertionSort(Ranked* first, Ranked* last)
{
    if (first == last)
        return;
    for (Ranked* i = first + 1; i < last; ++i) {
        const Ranked item = *i;
        const std::uint64_t key = descendingKey(item);
        Ranked* j = i;
        for (; j > first && descendingKey(*(j - 1)) > key; --j)
            *j = *(j - 1);
        *j = item;
    }
}

}  // namespace

void gatherAtLeast(const std::vector<double>& values, double threshold, std::vector<Ranked>& gathered, bool avx2)
{
    gathered.resize(values.size());
    const std::size_t count = avx2 ? gatherAvx2(values.data(), values.size(), threshold, gathered)
                                   : gatherSse2(values.data(), values.size(), threshold, gathered);
    gathered.resize(count);
}

std::optional<float> logitFloor(double threshold, double temperature, double maxScaled)
{
    // 1e-9 below log(threshold): some 10^4 times fdlibm's and std::log's errors at |x| <= 745.
    const double xFloor = std::log(threshold) - 1e-9;
    const auto x = [&](double l) { return l / temperature - maxScaled; };  // the lesson's operations
    double bound = (xFloor + maxScaled) * temperature;
    double step = std::max(std::abs(bound), 1.0) * 0x1p-40;
    for (int tries = 0; std::isfinite(bound) && !(x(bound) <= xFloor); ++tries, step *= 2.0) {
        if (tries == 64)
            return std::nullopt;
        bound -= step;
    }
    if (!std::isfinite(bound) || !(temperature > 0.0))
        return std::nullopt;
    // Out of float's range, the nearest float below: a looser floor only reads more exps.
    constexpr float kLargest = std::numeric_limits<float>::max();
    if (bound >= static_cast<double>(kLargest))
        return kLargest;
    if (bound <= -static_cast<double>(kLargest))
        return -std::numeric_limits<float>::infinity();
    float floor = static_cast<float>(bound);
    if (static_cast<double>(floor) > bound)
        floor = std::nextafter(floor, -std::numeric_limits<float>::infinity());
    return floor;
}

void gatherAtLeastByLogit(const float* logits, const std::vector<double>& exps, float floor, double threshold,
                          std::vector<Ranked>& gathered, bool avx2)
{
    gathered.resize(exps.size());
    const std::size_t count = avx2 ? gatherByLogitAvx2(logits, exps.data(), exps.size(), floor, threshold, gathered)
                                   : gatherByLogitSse2(logits, exps.data(), exps.size(), floor, threshold, gathered);
    gathered.resize(count);
}

// One stable counting pass into n to 2n buckets spread evenly over the items' keys, from the
// smallest to the largest (a bucket is a range of the key's high bits), then an insertion sort
// within each bucket. Why not the radix passes used before: each pass was a scatter of every
// item, and a top-p cut's few thousand survivors needed three; here one scatter leaves buckets of
// one or two items, mostly in place already (3,202 survivors of the lesson's step: 16 against 29
// us; 4,096 buckets rather than 8,192 saved 2 of them). Why not std::sort: its comparisons on
// random probabilities are mispredicted branches.
void sortRanked(std::vector<Ranked>& items, std::vector<Ranked>& scratch)
{
    const std::size_t n = items.size();
    if (n < kBucketsFrom) {
        std::sort(items.begin(), items.end(), rankedBefore);
        return;
    }
    std::uint64_t low = ~std::uint64_t{0};
    std::uint64_t high = 0;
    for (const Ranked& r : items) {
        const std::uint64_t key = descendingKey(r);
        low = std::min(low, key);
        high = std::max(high, key);
    }
    if (low == high)
        return;  // one value throughout: id order is the order
    const int bits = std::clamp(static_cast<int>(std::bit_width(n)), 7, 16);
    const int width = static_cast<int>(std::bit_width(high - low));
    const int shift = std::max(width - bits, 0);
    const auto bucket = [&](const Ranked& r) { return static_cast<std::size_t>((descendingKey(r) - low) >> shift); };

    thread_local std::vector<std::uint32_t> offsets;
    offsets.assign(std::size_t{1} << bits, 0);
    for (const Ranked& r : items)
        ++offsets[bucket(r)];
    std::uint32_t total = 0;
    std::uint32_t largest = 0;
    for (std::uint32_t& offset : offsets) {
        const std::uint32_t count = offset;
        largest = std::max(largest, count);
        offset = total;
        total += count;
    }
    scratch.resize(n);
    for (const Ranked& r : items)
        scratch[offsets[bucket(r)]++] = r;
    items.swap(scratch);

    if (largest <= kInsertionBucket) {
        insertionSort(items.data(), items.data() + n);
        return;
    }
    for (std::size_t i = 0; i < n;) {
        const std::size_t b = bucket(items[i]);
        const std::size_t end = offsets[b];  // the scatter left each offset at its bucket's end
        if (end - i <= kInsertionBucket)
            insertionSort(items.data() + i, items.data() + end);
        else
            std::stable_sort(items.begin() + static_cast<std::ptrdiff_t>(i),
                             items.begin() + static_cast<std::ptrdiff_t>(end), rankedBefore);
        i = end;
    }
}

}  // namespace logitlab::engine::detail
