#include "ranked.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <limits>
#include <emmintrin.h>
#include <immintrin.h>

namespace logitlab::engine::detail {

namespace {

// Why a mask of hits per group and a loop over its set bits: most groups have no survivor and cost
// one well-predicted branch, and a group with some costs a loop over those alone. (Writing every
// id of a group branch-free costs more once survivors are a few per cent of the vocabulary, as
// they are when the cut is guessed tightly.) A hit is kept where its value reaches the threshold,
// without a branch: always for a gather of the values themselves, nearly always for a gather by
// logit (the floor is within a hair of the threshold's logit).
void appendHits(const double* e, std::size_t first, std::uint32_t hits, double threshold,
                std::vector<Ranked>& gathered, std::size_t& count)
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
        const std::uint32_t hits = hitsOf4(e, bound) | hitsOf4(e + 4, bound) << 4 | hitsOf4(e + 8, bound) << 8
                              | hitsOf4(e + 12, bound) << 12;
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
        const std::uint32_t hits = hitsOf2(e, bound) | hitsOf2(e + 2, bound) << 2 | hitsOf2(e + 4, bound) << 4
                              | hitsOf2(e + 6, bound) << 6;
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
        const std::uint32_t hits = hitsOf8(l, bound) | hitsOf8(l + 8, bound) << 8 | hitsOf8(l + 16, bound) << 16
                                   | hitsOf8(l + 24, bound) << 24;
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
        const std::uint32_t hits = hitsOf4(l, bound) | hitsOf4(l + 4, bound) << 4 | hitsOf4(l + 8, bound) << 8
                                   | hitsOf4(l + 12, bound) << 12;
        if (hits != 0)
            appendHits(exps + j, j, hits, threshold, gathered, count);
    }
    return appendRestByLogit(logits, exps, j, n, floor, threshold, gathered, count);
}

// Below this many items a comparison sort is as quick as the radix sort's passes.
constexpr std::size_t kRadixFrom = 64;
constexpr std::size_t kDigits = 8;  // bytes of a double
constexpr std::size_t kSortedBytes = 4;  // the radix passes' share of them, from the top

// Descending p, as an ascending key: the bits of a double >= +0 order like its value.
std::uint64_t descendingKey(const Ranked& r)
{
    return ~std::bit_cast<std::uint64_t>(r.p);
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

// Least significant byte first, each pass a stable counting sort, over the top kSortedBytes bytes
// of the key only (a byte every key shares, the sign and the top of the exponent usually, is
// skipped); then each run of keys equal in those bytes, rare among distinct probabilities, is
// finished by a stable comparison sort. Why not std::sort: its comparisons on random
// probabilities are mispredicted branches, several times the cost of these passes at the
// thousands of survivors a top-p cut keeps. Why not every byte: the low bytes of probabilities
// are noise that almost never decides an order, and each pass is a scatter of every item.
void sortRanked(std::vector<Ranked>& items, std::vector<Ranked>& scratch)
{
    const std::size_t n = items.size();
    if (n < kRadixFrom) {
        std::sort(items.begin(), items.end(), rankedBefore);
        return;
    }
    constexpr std::size_t kFirstDigit = kDigits - kSortedBytes;
    std::array<std::array<std::uint32_t, 256>, kDigits> counts{};
    for (const Ranked& r : items) {
        const std::uint64_t key = descendingKey(r);
        for (std::size_t d = kFirstDigit; d < kDigits; ++d)
            ++counts[d][(key >> (8 * d)) & 0xff];
    }
    scratch.resize(n);
    const std::uint64_t firstKey = descendingKey(items[0]);
    for (std::size_t d = kFirstDigit; d < kDigits; ++d) {
        if (counts[d][(firstKey >> (8 * d)) & 0xff] == n)
            continue;
        std::array<std::uint32_t, 256> offset;
        std::uint32_t total = 0;
        for (std::size_t b = 0; b < 256; ++b) {
            offset[b] = total;
            total += counts[d][b];
        }
        for (const Ranked& r : items)
            scratch[offset[(descendingKey(r) >> (8 * d)) & 0xff]++] = r;
        items.swap(scratch);
    }
    // Runs equal in the sorted bytes are still in id order (every pass was stable): a stable sort
    // by the whole key finishes them.
    constexpr std::uint64_t kSortedMask = ~std::uint64_t{0} << (8 * kFirstDigit);
    for (std::size_t i = 0; i + 1 < n;) {
        const std::uint64_t high = descendingKey(items[i]) & kSortedMask;
        std::size_t end = i + 1;
        while (end < n && (descendingKey(items[end]) & kSortedMask) == high)
            ++end;
        if (end - i > 1)
            std::stable_sort(items.begin() + static_cast<std::ptrdiff_t>(i), items.begin() + static_cast<std::ptrdiff_t>(end),
                             rankedBefore);
        i = end;
    }
}

}  // namespace logitlab::engine::detail
