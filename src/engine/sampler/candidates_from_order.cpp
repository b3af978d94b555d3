#include "engine/sampler/candidates_from_order.h"

#include <algorithm>
#include <numeric>

namespace logitlab::engine {

std::vector<std::int32_t> idsByDescendingLogit(const Eigen::Ref<const Eigen::ArrayXd>& logits)
{
    std::vector<std::int32_t> order(static_cast<std::size_t>(logits.size()));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&logits](std::int32_t a, std::int32_t b) { return logits[a] > logits[b]; });
    return order;
}

CandidateList candidatesFromOrder(const std::vector<double>& probs, const std::vector<std::int32_t>& order,
                                  const SamplerSettings& settings)
{
    const std::size_t n = order.size();
    // top-k < 1 is refused by validateSettings(); keep the first token rather than none if one
    // arrives anyway (callers read the first survivor).
    const std::size_t limit =
        settings.topK ? std::min<std::size_t>(static_cast<std::size_t>(std::max(*settings.topK, 1)), n) : n;
    // Probabilities are non-increasing along `order` (exp is monotonic), so the running total
    // in this order is the running total candidates() computes: the same values, same order.
    std::size_t kept = limit;
    if (settings.topP) {
        double cumulative = 0.0;
        kept = 0;
        while (kept < limit) {
            cumulative += probs[static_cast<std::size_t>(order[kept++])];
            if (cumulative > *settings.topP)
                break;
        }
    }
    std::vector<std::int32_t> ids(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(kept));
    // candidates() breaks ties of equal probability by lower id; the logit order may not (two
    // logits can round to the same probability). Only a tied run that crosses the cut changes
    // which ids survive; any other tied run only changes the order within it.
    const auto pOf = [&probs](std::int32_t id) { return probs[static_cast<std::size_t>(id)]; };
    std::size_t runStart = 0;
    while (runStart < kept) {
        std::size_t runEnd = runStart + 1;
        while (runEnd < kept && pOf(ids[runEnd]) == pOf(ids[runStart]))
            ++runEnd;
        if (runEnd == kept && kept < n && pOf(order[kept]) == pOf(ids[runStart])) {
            // The run continues past the cut: keep its lowest ids.
            std::size_t past = kept;
            while (past < n && pOf(order[past]) == pOf(ids[runStart]))
                ++past;
            std::vector<std::int32_t> run(order.begin() + static_cast<std::ptrdiff_t>(runStart),
                                          order.begin() + static_cast<std::ptrdiff_t>(past));
            const auto take = static_cast<std::ptrdiff_t>(kept - runStart);
            std::partial_sort(run.begin(), run.begin() + take, run.end());
            std::copy(run.begin(), run.begin() + take, ids.begin() + static_cast<std::ptrdiff_t>(runStart));
        } else if (runEnd - runStart > 1) {
            std::sort(ids.begin() + static_cast<std::ptrdiff_t>(runStart),
                      ids.begin() + static_cast<std::ptrdiff_t>(runEnd));
        }
        runStart = runEnd;
    }

    double total = 0.0;
    for (std::int32_t id : ids)
        total += pOf(id);
    CandidateList out;
    out.reserve(kept);
    for (std::int32_t id : ids)
        out.push_back(Candidate{id, pOf(id) / total, pOf(id)});
    return out;
}

}  // namespace logitlab::engine
