#include "min_p_stage.h"

#include "number_format.h"
#include "stage_support.h"

#include <algorithm>
#include <cmath>

namespace logitlab::engine {

MinPStage::MinPStage(Semantics semantics) : StageBase(semantics)
{
    declare({"p", ParameterKind::Real, 0.0,
             "lesson, hf, vllm: [0, 1], 0 is off; llama.cpp: any, <= 0 is off, > 1 keeps the argmax"});
    declareMinKeep(true, true);
}

std::optional<std::string> MinPStage::validate() const
{
    const double p = number("p");
    if (semantics() != Semantics::LlamaCpp && (p < 0.0 || p > 1.0))
        return problem("p", semanticsName(semantics()) + " requires min_p in [0, 1], got " + formatDouble(p));
    if (semantics() == Semantics::LlamaCpp && !std::isfinite(p))
        return problem("p", "must be finite");
    return checkMinKeep();
}

void MinPStage::apply(CandidateArray& candidates, SamplerContext& /*context*/)
{
    if (candidates.empty())
        return;
    const double p = number("p");
    auto& data = candidates.data();
    const std::size_t keep = minKeep();

    if (semantics() == Semantics::LlamaCpp || semantics() == Semantics::Lesson) {
        // ln p_i - ln p_max >= ln p, with the boundary tolerance: a token exactly on the cut stays
        // however its logit rounded.
        const double threshold = data[candidates.argmax()].logit + std::log(p) - detail::kBoundaryTolerance;
        if (!candidates.sorted()) {
            std::vector<TokenData> kept;
            for (const auto& t : data)
                if (t.logit >= threshold)
                    kept.push_back(t);
            if (!kept.empty() && kept.size() >= keep) {
                data = std::move(kept);
                return;
            }
            candidates.sortDescending();
        }
        std::size_t i = 1;
        for (; i < data.size(); ++i)
            if (data[i].logit < threshold && i >= keep)
                break;
        candidates.truncate(i);
        return;
    }

    candidates.softmax();
    double pMax = 0.0;
    for (const auto& t : data)
        pMax = std::max(pMax, t.p);
    std::vector<bool> remove(data.size());
    for (std::size_t i = 0; i < data.size(); ++i)
        remove[i] = data[i].p < p * pMax - detail::kBoundaryTolerance;
    detail::removeExceptTop(candidates, std::move(remove), std::max<std::size_t>(keep, 1));
}

}  // namespace logitlab::engine
