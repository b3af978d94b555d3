#include "engine/sampler/draw.h"

#include <cmath>
#include <limits>

namespace logitlab::engine {

namespace {

// First index whose running total passes u * total; `strict` skips zero-probability entries.
std::size_t walk(const CandidateArray& a, double u, bool strict)
{
    double total = 0.0;
    for (const auto& t : a.data())
        total += t.p;
    const double target = u * total;
    double cumulative = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        cumulative += a[i].p;
        if (strict ? cumulative > target : cumulative >= target)
            return i;
    }
    // Rounding left the target above the total: the last token with p > 0.
    for (std::size_t i = a.size(); i-- > 0;)
        if (a[i].p > 0.0)
            return i;
    return a.size() - 1;
}

}  // namespace

std::size_t drawIndex(const CandidateArray& candidates, Semantics semantics, Rng& rng)
{
    switch (semantics) {
    case Semantics::Lesson: {
        // The lesson's sample(): r -= p down the list until r <= 0 (array in its sorted order).
        double r = rng.nextDouble();
        for (std::size_t i = 0; i < candidates.size(); ++i) {
            r -= candidates[i].p;
            if (r <= 0.0)
                return i;
        }
        return candidates.size() - 1;
    }
    case Semantics::LlamaCpp:
        if (candidates.size() == 1)
            return 0;  // llama.cpp selects a lone candidate without drawing
        return walk(candidates, rng.nextDouble(), false);
    case Semantics::Hf:
        return walk(candidates, rng.nextDouble(), true);
    case Semantics::Vllm: {
        // argmax p / q with q ~ Exp(1): one exponential per candidate, in array (id) order.
        std::size_t best = 0;
        double bestScore = -1.0;
        for (std::size_t i = 0; i < candidates.size(); ++i) {
            const double q = -std::log1p(-rng.nextDouble());
            const double score = q > 0.0 ? candidates[i].p / q : std::numeric_limits<double>::infinity();
            if (candidates[i].p > 0.0 && score > bestScore) {
                best = i;
                bestScore = score;
            }
        }
        return best;
    }
    }
    return 0;
}

}  // namespace logitlab::engine
