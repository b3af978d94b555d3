#include "top_p_stage.h"

#include "number_format.h"
#include "stage_support.h"

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

void TopPStage::apply(CandidateArray& candidates, SamplerContext& /*context*/)
{
    if (candidates.empty())
        return;
    const double p = number("p");
    auto& data = candidates.data();

    if (semantics() == Semantics::Lesson) {
        // Probabilities as the lesson has them: after its top-k they are not renormalised.
        if (!candidates.sorted()) {
            candidates.softmax();
            std::stable_sort(data.begin(), data.end(), [](const TokenData& a, const TokenData& b) { return a.p > b.p; });
            candidates.setSorted(true);
        }
        double cumulative = 0.0;
        for (std::size_t i = 0; i < data.size(); ++i) {
            cumulative += data[i].p;
            if (cumulative > p) {
                candidates.truncate(i + 1);
                break;
            }
        }
        return;
    }

    candidates.softmax();
    const std::size_t keep = std::max<std::size_t>(1, minKeep());

    if (semantics() == Semantics::LlamaCpp) {
        candidates.sortDescending();
        double cumulative = 0.0;
        for (std::size_t i = 0; i < data.size(); ++i) {
            cumulative += data[i].p;
            if (cumulative >= p - detail::kBoundaryTolerance && i + 1 >= keep) {
                candidates.truncate(i + 1);
                break;
            }
        }
        return;
    }

    // Hugging Face and vLLM mask in place: token i stays iff the mass ranked above it is < p.
    const auto order = detail::orderByLogit(candidates);
    std::vector<bool> remove(data.size(), false);
    double above = 0.0;
    for (std::size_t r = 0; r < order.size(); ++r) {
        remove[order[r]] = !(above < p - detail::kBoundaryTolerance);
        above += data[order[r]].p;
    }
    detail::removeExceptTop(candidates, std::move(remove), keep);
}

}  // namespace logitlab::engine
