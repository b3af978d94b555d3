#include "engine/stages/top_k_stage.h"

#include "engine/core/number_format.h"
#include "engine/stages/stage_support.h"

#include <algorithm>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace logitlab::engine {

namespace {

// Descending logit, lower id first: the deterministic order for exact-k cuts.
bool better(const TokenData& a, const TokenData& b) { return a.logit > b.logit || (a.logit == b.logit && a.id < b.id); }

// The scan's fast part: from `i`, skips whole blocks in which no value beats `worst` (one SIMD
// compare per 4 floats or 2 doubles, one branch per block) and returns where a block that may
// hold one starts, or the start of the tail shorter than a block. Almost every block of a large
// vocabulary is skipped once the heap holds good tokens. Compares as the scalar loop does
// (x > worst: false for NaN), so the selection is the same token for token.
constexpr std::size_t kFloatBlock = 16;
constexpr std::size_t kDoubleBlock = 8;

std::size_t skipBlocksBelow(const float* logits, std::size_t i, std::size_t n, float worst)
{
#if defined(__SSE2__)
    const __m128 w = _mm_set1_ps(worst);
    for (; i + kFloatBlock <= n; i += kFloatBlock) {
        const __m128 a = _mm_cmpgt_ps(_mm_loadu_ps(logits + i), w);
        const __m128 b = _mm_cmpgt_ps(_mm_loadu_ps(logits + i + 4), w);
        const __m128 c = _mm_cmpgt_ps(_mm_loadu_ps(logits + i + 8), w);
        const __m128 d = _mm_cmpgt_ps(_mm_loadu_ps(logits + i + 12), w);
        if (_mm_movemask_ps(_mm_or_ps(_mm_or_ps(a, b), _mm_or_ps(c, d))) != 0)
            break;
    }
#else
    (void)logits, (void)n, (void)worst;
#endif
    return i;
}

std::size_t skipBlocksBelow(const double* logits, std::size_t i, std::size_t n, double worst)
{
#if defined(__SSE2__)
    const __m128d w = _mm_set1_pd(worst);
    for (; i + kDoubleBlock <= n; i += kDoubleBlock) {
        const __m128d a = _mm_cmpgt_pd(_mm_loadu_pd(logits + i), w);
        const __m128d b = _mm_cmpgt_pd(_mm_loadu_pd(logits + i + 2), w);
        const __m128d c = _mm_cmpgt_pd(_mm_loadu_pd(logits + i + 4), w);
        const __m128d d = _mm_cmpgt_pd(_mm_loadu_pd(logits + i + 6), w);
        if (_mm_movemask_pd(_mm_or_pd(_mm_or_pd(a, b), _mm_or_pd(c, d))) != 0)
            break;
    }
#else
    (void)logits, (void)n, (void)worst;
#endif
    return i;
}

template <class Scalar>
CandidateArray heapSelect(const Scalar* logits, std::size_t n, std::size_t k)
{
    CandidateArray out;
    auto& heap = out.data();  // a min-heap under better(): the worst kept token on top
    heap.reserve(k + 1);
    const std::size_t first = std::min(k, n);
    for (std::size_t i = 0; i < first; ++i)
        heap.push_back({static_cast<std::int32_t>(i), static_cast<double>(logits[i]), 0.0});
    std::make_heap(heap.begin(), heap.end(), better);
    // The scan compares in the logits' own type against the worst kept value (exact: a float
    // widens to double without rounding); ids grow, so an equal logit never displaces.
    Scalar worst = first > 0 ? static_cast<Scalar>(heap.front().logit) : Scalar{};
    constexpr std::size_t block = std::is_same_v<Scalar, float> ? kFloatBlock : kDoubleBlock;
    for (std::size_t i = first; i < n;) {
        i = skipBlocksBelow(logits, i, n, worst);
        for (const std::size_t end = std::min(n, i + block); i < end; ++i) {
            if (!(logits[i] > worst))
                continue;
            std::pop_heap(heap.begin(), heap.end(), better);
            heap.back() = {static_cast<std::int32_t>(i), static_cast<double>(logits[i]), 0.0};
            std::push_heap(heap.begin(), heap.end(), better);
            worst = static_cast<Scalar>(heap.front().logit);
        }
    }
    std::sort(heap.begin(), heap.end(), better);
    out.setSorted(true);
    return out;
}

}  // namespace

TopKStage::TopKStage(Semantics semantics) : StageBase(semantics)
{
    declare({"k", ParameterKind::Integer, 0,
             "lesson: >= 1; llama.cpp: <= 0 is off; hf: 0 is off, negative is an error; vllm: 0 and -1 are off"});
    declareMinKeep(false, true);  // hf: effective k = max(k, min-keep)
}

std::optional<std::string> TopKStage::validate() const
{
    const double k = number("k");
    switch (semantics()) {
    case Semantics::Lesson:
        if (k < 1)
            return problem("k", "must be at least 1, got " + formatDouble(k));
        break;
    case Semantics::Hf:
        if (k < 0)
            return problem("k", "hf requires a strictly positive top_k (0 disables it), got " + formatDouble(k));
        break;
    case Semantics::Vllm:
        if (k < -1)
            return problem("k", "vllm requires top_k >= 1, or 0 / -1 for off, got " + formatDouble(k));
        break;
    case Semantics::LlamaCpp:
        break;
    }
    return checkMinKeep();
}

bool TopKStage::active() const { return number("k") > 0; }

bool TopKStage::canSelectFromLogits(std::size_t n) const
{
    return (semantics() == Semantics::LlamaCpp) && active() && static_cast<std::size_t>(number("k")) < n;
}

CandidateArray TopKStage::selectFromLogits(const float* logits, std::size_t n) const
{
    return heapSelect(logits, n, static_cast<std::size_t>(number("k")));
}

CandidateArray TopKStage::selectFromLogits(const double* logits, std::size_t n) const
{
    return heapSelect(logits, n, static_cast<std::size_t>(number("k")));
}

void TopKStage::apply(CandidateArray& candidates, SamplerContext& context)
{
    if (candidates.empty())
        return;
    const auto k = static_cast<std::size_t>(number("k"));
    auto& data = candidates.data();
    switch (semantics()) {
    case Semantics::Lesson: {
        // The lesson ranks by the softmax over everything present, then keeps k; top-p after it
        // reads those same (not renormalised) probabilities.
        candidates.softmax();
        std::stable_sort(data.begin(), data.end(), [](const TokenData& a, const TokenData& b) { return a.p > b.p; });
        for (std::size_t i = 0; context.cutNotes && i < data.size(); ++i)
            context.noteCut(
                {name(), data[i].id, data[i].logit, static_cast<double>(i + 1), static_cast<double>(k), "rank", i < k});
        candidates.truncate(k);
        candidates.setSorted(true);
        return;
    }
    case Semantics::LlamaCpp: {
        const std::size_t keep = std::min(k, data.size());
        if (!candidates.sorted()) {
            // Stable tie rule: the lower array position (id) wins, so results are reproducible.
            std::vector<std::size_t> pos(data.size());
            for (std::size_t i = 0; i < data.size(); ++i)
                pos[i] = i;
            auto byRank = [&data](std::size_t a, std::size_t b) {
                return data[a].logit > data[b].logit || (data[a].logit == data[b].logit && a < b);
            };
            std::partial_sort(pos.begin(), pos.begin() + static_cast<std::ptrdiff_t>(keep), pos.end(), byRank);
            for (std::size_t i = 0; context.cutNotes && i < pos.size(); ++i)
                context.noteCut({name(), data[pos[i]].id, data[pos[i]].logit, static_cast<double>(i + 1),
                                 static_cast<double>(keep), "rank", i < keep});
            std::vector<TokenData> top(keep);
            for (std::size_t i = 0; i < keep; ++i)
                top[i] = data[pos[i]];
            data = std::move(top);
        }
        candidates.truncate(keep);
        candidates.setSorted(true);
        return;
    }
    case Semantics::Hf:
    case Semantics::Vllm: {
        const std::size_t effective = std::min(std::max(k, minKeep()), data.size());
        std::vector<double> logits(data.size());
        for (std::size_t i = 0; i < data.size(); ++i)
            logits[i] = data[i].logit;
        std::nth_element(logits.begin(), logits.begin() + static_cast<std::ptrdiff_t>(effective - 1), logits.end(),
                         std::greater<>());
        const double kth = logits[effective - 1];
        std::vector<bool> remove(data.size());
        for (std::size_t i = 0; i < data.size(); ++i)
            remove[i] = data[i].logit < kth;  // strictly below: ties with the k-th value stay
        detail::removeExceptTop(candidates, std::move(remove), 0);
        return;
    }
    }
}

}  // namespace logitlab::engine
