#include "engine/stages/top_p_stage.h"

#include "engine/core/number_format.h"
#include "engine/kernels/float32_arithmetic.h"
#include "engine/stages/stage_support.h"

#include <algorithm>
#include <cmath>

namespace logitlab::engine {

TopPStage::TopPStage(Semantics semantics) : StageBase(semantics)
{
    declare({"p", ParameterKind::Real, 1.0,
             "lesson: (0, 1]; llama.cpp: any, >= 1 is off; hf: [0, 1], 1 is off; vllm: (0, 1], 1 is off"});
    declareMinKeep(true, true);
}

std::optional<std::string> TopPStage::validate() const
{
    const double p = number("p");
    switch (semantics()) {
    case Semantics::Lesson:
        if (!(p > 0.0 && p <= 1.0))
            return problem("p", "must be in (0, 1], got " + formatDouble(p));
        break;
    case Semantics::LlamaCpp:
        break;
    case Semantics::Hf:
        if (p < 0.0 || p > 1.0)
            return problem("p", "hf requires top_p in [0, 1], got " + formatDouble(p));
        break;
    case Semantics::Vllm:
        if (!(p > 0.0 && p <= 1.0))
            return problem("p", "vllm requires top_p in (0, 1], got " + formatDouble(p));
        break;
    }
    return checkMinKeep();
}

bool TopPStage::active() const
{
    // The lesson applies p = 1 (it can still cut where rounding pushes the total above 1).
    return semantics() == Semantics::Lesson || number("p") < 1.0;
}

void TopPStage::apply(CandidateArray& candidates, SamplerContext& context)
{
    if (candidates.empty())
        return;
    const double p = number("p");
    auto& data = candidates.data();

    if (semantics() == Semantics::Lesson) {
        // Probabilities as the lesson has them: after its top-k they are not renormalised.
        if (!candidates.sorted()) {
            candidates.softmax();
            std::stable_sort(data.begin(), data.end(),
                             [](const TokenData& a, const TokenData& b) { return a.p > b.p; });
            candidates.setSorted(true);
        }
        double cumulative = 0.0;
        std::size_t count = data.size();
        for (std::size_t i = 0; i < data.size(); ++i) {
            cumulative += data[i].p;
            context.noteCut({name(), data[i].id, data[i].logit, cumulative, p, "running total", true});
            if (cumulative > p) {
                count = i + 1;
                break;
            }
        }
        noteCutAfter(candidates, context, count, p);
        candidates.truncate(count);
        return;
    }

    const std::size_t keep = std::max<std::size_t>(1, minKeep());
    if (libraryArithmetic()) {
        applyLibrary(candidates, context, keep);
        return;
    }
    candidates.softmax();

    if (semantics() == Semantics::LlamaCpp) {
        candidates.sortDescending();
        double cumulative = 0.0;
        std::size_t count = data.size();
        for (std::size_t i = 0; i < data.size(); ++i) {
            cumulative += data[i].p;
            const bool stop = cumulative >= p - detail::kBoundaryTolerance && i + 1 >= keep;
            context.noteCut({name(), data[i].id, data[i].logit, cumulative, p, "running total", true});
            if (stop) {
                count = i + 1;
                break;
            }
        }
        noteCutAfter(candidates, context, count, p);
        candidates.truncate(count);
        return;
    }

    // Hugging Face and vLLM mask in place: token i stays iff the mass ranked above it is < p. The
    // note is what the libraries compare: the running total from the least probable token up,
    // against 1 - p.
    const auto order = detail::orderByLogit(candidates);
    std::vector<bool> remove(data.size(), false);
    double above = 0.0;
    for (std::size_t r = 0; r < order.size(); ++r) {
        remove[order[r]] = !(above < p - detail::kBoundaryTolerance);
        above += data[order[r]].p;
    }
    if (context.cutNotes) {
        double ascending = 0.0;
        for (std::size_t r = order.size(); r-- > 0;) {
            ascending += data[order[r]].p;
            context.noteCut({name(), data[order[r]].id, data[order[r]].logit, ascending, 1.0 - p, "running total",
                             !remove[order[r]] || r < keep});
        }
    }
    detail::removeExceptTop(candidates, std::move(remove), keep);
}

void TopPStage::noteCutAfter(const CandidateArray& candidates, SamplerContext& context, std::size_t count,
                             double cut) const
{
    // The tokens after the crossing one are cut without being summed: note them with the total
    // they would have reached.
    if (!context.cutNotes)
        return;
    double total = context.cutNotes->empty() ? 0.0 : context.cutNotes->back().total;
    for (std::size_t i = count; i < candidates.size(); ++i) {
        total += candidates[i].p;
        context.noteCut({name(), candidates[i].id, candidates[i].logit, total, cut, "running total", false});
    }
}

void TopPStage::applyLibrary(CandidateArray& candidates, SamplerContext& context, std::size_t keep) const
{
    auto& data = candidates.data();
    if (semantics() == Semantics::LlamaCpp) {
        // llama_sampler_top_p_apply: p is a float (0.95 is 0.949999988), off at >= 1.0f; softmax
        // in float (expf, a float sum in array order), sort by logit, a float running total.
        const float p = static_cast<float>(number("p"));
        if (p >= 1.0f)
            return;
        detail::llamaSoftmax(candidates);
        candidates.sortDescending();
        float cumulative = 0.0f;
        std::size_t count = data.size();
        for (std::size_t i = 0; i < data.size(); ++i) {
            cumulative += static_cast<float>(data[i].p);
            context.noteCut({name(), data[i].id, data[i].logit, cumulative, p, "running total", true});
            if (cumulative >= p && i + 1 >= keep) {
                count = i + 1;
                break;
            }
        }
        noteCutAfter(candidates, context, count, p);
        candidates.truncate(count);
        return;
    }

    // torch: sort ascending, softmax of the sorted logits in float32, cumsum (a double
    // accumulator on the CPU, each total rounded to float), remove totals <= 1 - p. HF computes
    // 1 - top_p in Python (double) and the comparison rounds it to float; vLLM holds top_p in a
    // float32 tensor and subtracts in float32 (1 - 0.8f = 0.199999988, below 0.2).
    const double p = number("p");
    const float threshold = semantics() == Semantics::Vllm ? 1.0f - static_cast<float>(p) : static_cast<float>(1.0 - p);
    auto order = detail::orderByLogit(candidates);  // descending, ties lower id first
    std::reverse(order.begin(), order.end());       // ascending: among ties the higher id is removed first
    std::vector<float> sortedLogits(order.size());
    for (std::size_t r = 0; r < order.size(); ++r)
        sortedLogits[r] = static_cast<float>(data[order[r]].logit);
    const std::vector<float> totals = detail::torchCumsum(detail::torchSoftmax(sortedLogits));
    std::vector<bool> remove(data.size(), false);
    for (std::size_t r = 0; r < order.size(); ++r) {
        // The last min_keep (HF) or the last one (vLLM) of the ascending order always stay.
        remove[order[r]] = totals[r] <= threshold && r + keep < order.size();
        context.noteCut({name(), data[order[r]].id, data[order[r]].logit, totals[r], threshold, "running total",
                         !remove[order[r]]});
    }
    detail::removeExceptTop(candidates, std::move(remove), 0);
}

}  // namespace logitlab::engine
