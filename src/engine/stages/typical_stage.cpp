#include "engine/stages/typical_stage.h"

#include "engine/core/number_format.h"
#include "engine/kernels/float32_arithmetic.h"
#include "engine/stages/stage_support.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace logitlab::engine {

TypicalStage::TypicalStage(Semantics semantics) : StageBase(semantics)
{
    declare({"p", ParameterKind::Real, 1.0,
             "lesson: (0, 1], 1 is off; llama.cpp: any, >= 1 is off; hf: (0, 1), 1 is off; not in vllm"});
    declareMinKeep(true, true);
}

std::optional<std::string> TypicalStage::validate() const
{
    const double p = number("p");
    switch (semantics()) {
    case Semantics::Vllm:
        return name() + ": vllm has no typical-p sampler";
    case Semantics::Lesson:
        if (!(p > 0.0 && p <= 1.0))
            return problem("p", "must be in (0, 1], got " + formatDouble(p));
        break;
    case Semantics::Hf:
        if (!(p > 0.0 && p <= 1.0))
            return problem("p", "hf requires typical_p in (0, 1), got " + formatDouble(p));
        break;
    case Semantics::LlamaCpp:
        break;
    }
    return checkMinKeep();
}

void TypicalStage::apply(CandidateArray& candidates, SamplerContext& context)
{
    if (candidates.empty())
        return;
    const double mass = number("p");
    const std::size_t keep = minKeep();
    if (libraryArithmetic()) {
        applyLibrary(candidates, context, keep);
        return;
    }

    candidates.softmax();
    if (semantics() != Semantics::Hf)
        candidates.sortDescending();  // llama.cpp's softmax sorts first; the score order is built on it
    // llama.cpp computes -p ln p unguarded, so one p = 0 makes H NaN; LogitLab uses the limit 0.
    const double h = detail::entropy(candidates);
    auto& data = candidates.data();
    std::vector<double> score(data.size());
    for (std::size_t i = 0; i < data.size(); ++i)
        score[i] = data[i].p > 0.0 ? std::fabs(-std::log(data[i].p) - h) : std::numeric_limits<double>::infinity();
    // Scores equal in exact arithmetic (p = 0.5, 0.25, 0.25 all score 0.5 ln 2) differ by an ulp
    // in double; within the boundary tolerance they are ties, in array order.
    std::vector<std::size_t> order(data.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&score](std::size_t a, std::size_t b) { return score[a] < score[b]; });
    for (std::size_t start = 0; start < order.size();) {
        std::size_t end = start + 1;
        while (end < order.size() && score[order[end]] <= score[order[start]] + detail::kBoundaryTolerance)
            ++end;
        std::sort(order.begin() + static_cast<std::ptrdiff_t>(start), order.begin() + static_cast<std::ptrdiff_t>(end));
        start = end;
    }

    if (semantics() != Semantics::Hf) {
        double cumulative = 0.0;
        std::size_t count = order.size();
        for (std::size_t r = 0; r < order.size(); ++r) {
            cumulative += data[order[r]].p;
            if (cumulative > mass + detail::kBoundaryTolerance && r + 1 >= keep) {
                count = r + 1;
                break;
            }
        }
        if (context.cutNotes) {
            double total = 0.0;
            for (std::size_t r = 0; r < order.size(); ++r) {
                total += data[order[r]].p;
                context.noteCut(
                    {name(), data[order[r]].id, data[order[r]].logit, total, mass, "running total", r < count});
            }
        }
        std::vector<TokenData> kept(count);
        for (std::size_t r = 0; r < count; ++r)
            kept[r] = data[order[r]];
        data = std::move(kept);
        candidates.setSorted(false);  // typicality order, p left as it was before the cut
        return;
    }

    // Hugging Face: last = how many running totals are < mass; tokens scoring above the score
    // there go, the first min_keep in typicality order stay.
    double cumulative = 0.0;
    std::size_t last = 0;
    for (std::size_t r = 0; r < order.size(); ++r) {
        cumulative += data[order[r]].p;
        if (cumulative < mass - detail::kBoundaryTolerance)
            ++last;
    }
    last = std::min(last, order.size() - 1);
    const double boundary = score[order[last]];
    std::vector<bool> remove(data.size());
    for (std::size_t i = 0; i < data.size(); ++i)
        remove[i] = score[i] > boundary + detail::kBoundaryTolerance;  // ties on the boundary score stay
    for (std::size_t r = 0; r < std::min(keep, order.size()); ++r)
        remove[order[r]] = false;
    if (context.cutNotes) {
        double total = 0.0;
        for (std::size_t r = 0; r < order.size(); ++r) {
            total += data[order[r]].p;
            context.noteCut(
                {name(), data[order[r]].id, data[order[r]].logit, total, mass, "running total", !remove[order[r]]});
        }
    }
    detail::removeExceptTop(candidates, std::move(remove), 0);
}

void TypicalStage::applyLibrary(CandidateArray& candidates, SamplerContext& context, std::size_t keep) const
{
    auto& data = candidates.data();
    const float mass = static_cast<float>(number("p"));
    // The order of the typicality sort: by score, ties in array order (LogitLab's tie rule; the
    // libraries' sorts leave exact ties undefined).
    const auto byScore = [](const std::vector<float>& score) {
        std::vector<std::size_t> order(score.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(),
                         [&score](std::size_t a, std::size_t b) { return score[a] < score[b]; });
        return order;
    };

    if (semantics() != Semantics::Hf) {
        // llama_sampler_typical_apply: off at p >= 1.0f; sort, float softmax, a float entropy
        // (p = 0 terms skipped: llama.cpp's NaN is never reported), float scores |-logf(p) - H|,
        // a float running total in score order, stop at the first total > p.
        if (mass >= 1.0f)
            return;
        candidates.sortDescending();
        detail::llamaSoftmax(candidates);
        float entropy = 0.0f;
        for (const auto& t : data) {
            const auto p = static_cast<float>(t.p);
            if (p > 0.0f)
                entropy += -p * std::log(p);
        }
        std::vector<float> score(data.size());
        for (std::size_t i = 0; i < data.size(); ++i) {
            const auto p = static_cast<float>(data[i].p);
            score[i] = p > 0.0f ? std::fabs(-std::log(p) - entropy) : std::numeric_limits<float>::infinity();
        }
        const auto order = byScore(score);
        float cumulative = 0.0f;
        std::size_t count = order.size();
        for (std::size_t r = 0; r < order.size(); ++r) {
            cumulative += static_cast<float>(data[order[r]].p);
            if (cumulative > mass && (keep == 0 || r + 1 >= keep)) {
                count = r + 1;
                break;
            }
        }
        if (context.cutNotes) {
            float total = 0.0f;
            for (std::size_t r = 0; r < order.size(); ++r) {
                total += static_cast<float>(data[order[r]].p);
                context.noteCut(
                    {name(), data[order[r]].id, data[order[r]].logit, total, mass, "running total", r < count});
            }
        }
        std::vector<TokenData> kept(count);
        for (std::size_t r = 0; r < count; ++r)
            kept[r] = data[order[r]];
        data = std::move(kept);
        candidates.setSorted(false);
        return;
    }

    // TypicalLogitsWarper in float32: log_softmax, p = exp of it, H = -nansum(log p * p), score
    // |-log p - H|, sort by score, cumsum of the softmax of the logits in that order, last = how
    // many totals are < mass, remove scores strictly above the score at last.
    const std::vector<float> logits = detail::logitsAsFloat(candidates);
    const std::vector<float> logP = detail::torchLogSoftmax(logits);
    float entropy = 0.0f;
    for (float l : logP) {
        const float term = l * std::exp(l);
        if (!std::isnan(term))
            entropy += term;
    }
    entropy = -entropy;
    std::vector<float> score(logP.size());
    for (std::size_t i = 0; i < score.size(); ++i)
        score[i] = std::fabs(-logP[i] - entropy);
    const auto order = byScore(score);
    std::vector<float> sortedLogits(order.size());
    for (std::size_t r = 0; r < order.size(); ++r)
        sortedLogits[r] = logits[order[r]];
    const std::vector<float> totals = detail::torchCumsum(detail::torchSoftmax(sortedLogits));
    std::size_t last = 0;
    for (float t : totals)
        if (t < mass)
            ++last;
    last = std::min(last, order.size() - 1);
    const float boundary = score[order[last]];
    std::vector<bool> remove(data.size());
    for (std::size_t i = 0; i < data.size(); ++i)
        remove[i] = score[i] > boundary;
    for (std::size_t r = 0; r < std::min(keep, order.size()); ++r)
        remove[order[r]] = false;
    for (std::size_t r = 0; r < order.size(); ++r)
        context.noteCut(
            {name(), data[order[r]].id, data[order[r]].logit, totals[r], mass, "running total", !remove[order[r]]});
    detail::removeExceptTop(candidates, std::move(remove), 0);
}

}  // namespace logitlab::engine
