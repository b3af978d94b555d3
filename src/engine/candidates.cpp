#include "candidates.h"

#include "softmax_kernel.h"

#include <algorithm>
#include <numeric>
#include <vector>

namespace logitlab::engine {

namespace {

// First chunk of the sorted order to build; it grows fourfold until the top-p cut is inside.
constexpr std::size_t kFirstChunk = 256;

template <class Scalar>
CandidateList candidatesOf(const Scalar* logits, std::size_t n, const SamplerSettings& settings)
{
    if (settings.temperature == 0.0)
        return {Candidate{detail::argmaxOf(logits, n), 1.0, 1.0}};

    std::vector<double> probs(n);
    const double sum = detail::exponentiate(logits, n, settings.temperature, probs.data());
    detail::normalise(probs.data(), n, sum);

    // Descending probability, lower id first on ties: the order a stable sort gives in the lesson.
    const auto before = [&probs](std::int32_t a, std::int32_t b) {
        return probs[a] > probs[b] || (probs[a] == probs[b] && a < b);
    };
    std::vector<std::int32_t> order(n);
    std::iota(order.begin(), order.end(), 0);

    const std::size_t limit = settings.topK ? std::min<std::size_t>(*settings.topK, n) : n;
    std::size_t kept = limit;
    if (!settings.topP) {
        if (limit == n)
            std::sort(order.begin(), order.end(), before);
        else
            std::partial_sort(order.begin(), order.begin() + limit, order.end(), before);
    } else {
        double cumulative = 0.0;
        std::size_t sorted = 0;
        bool crossed = false;
        kept = 0;
        while (!crossed && sorted < limit) {
            const std::size_t chunk = std::min(limit, sorted == 0 ? kFirstChunk : sorted * 4);
            std::partial_sort(order.begin() + sorted, order.begin() + chunk, order.end(), before);
            sorted = chunk;
            while (kept < sorted) {
                cumulative += probs[order[kept++]];
                if (cumulative > *settings.topP) {
                    crossed = true;
                    break;
                }
            }
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
