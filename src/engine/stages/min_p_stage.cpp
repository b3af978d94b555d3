#include "engine/stages/min_p_stage.h"

#include "engine/core/number_format.h"
#include "engine/kernels/float32_arithmetic.h"
#include "engine/stages/stage_support.h"

#include <algorithm>
#include <cmath>
#include <limits>

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

void MinPStage::apply(CandidateArray& candidates, SamplerContext& context)
{
    if (candidates.empty())
        return;
    const double p = number("p");
    auto& data = candidates.data();
    const std::size_t keep = minKeep();
    if (libraryArithmetic()) {
        applyLibrary(candidates, context, keep);
        return;
    }

    if (semantics() == Semantics::LlamaCpp || semantics() == Semantics::Lesson) {
        // ln p_i - ln p_max >= ln p, with the boundary tolerance: a token exactly on the cut stays
        // however its logit rounded.
        const double threshold = data[candidates.argmax()].logit + std::log(p) - detail::kBoundaryTolerance;
        if (!candidates.sorted()) {
            std::vector<TokenData> kept;
            for (const auto& t : data) {
                context.noteCut({name(), t.id, t.logit, t.logit, threshold + detail::kBoundaryTolerance, "logit",
                                 t.logit >= threshold});
                if (t.logit >= threshold)
                    kept.push_back(t);
            }
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
    for (std::size_t i = 0; i < data.size(); ++i) {
        remove[i] = data[i].p < p * pMax - detail::kBoundaryTolerance;
        context.noteCut({name(), data[i].id, data[i].logit, data[i].p, p * pMax, "p", !remove[i]});
    }
    detail::removeExceptTop(candidates, std::move(remove), std::max<std::size_t>(keep, 1));
}

void MinPStage::applyLibrary(CandidateArray& candidates, SamplerContext& context, std::size_t keep) const
{
    auto& data = candidates.data();
    if (semantics() == Semantics::LlamaCpp) {
        // llama_sampler_min_p_apply: off at p <= 0.0f; min_logit = max_logit + logf(p) in float,
        // keep logit >= min_logit (token order); the sorted fallback as in exact arithmetic.
        const float p = static_cast<float>(number("p"));
        if (p <= 0.0f)
            return;
        float maxLogit = -std::numeric_limits<float>::max();
        for (const auto& t : data)
            maxLogit = std::max(maxLogit, static_cast<float>(t.logit));
        const float threshold = maxLogit + std::log(p);
        std::vector<TokenData> kept;
        for (const auto& t : data) {
            const bool stays = static_cast<float>(t.logit) >= threshold;
            context.noteCut({name(), t.id, t.logit, t.logit, threshold, "logit", stays});
            if (stays)
                kept.push_back(t);
        }
        if (!candidates.sorted() && !kept.empty() && kept.size() >= keep) {
            data = std::move(kept);
            return;
        }
        candidates.sortDescending();
        std::size_t i = 1;
        for (; i < data.size(); ++i)
            if (static_cast<float>(data[i].logit) < threshold && i >= keep)
                break;
        candidates.truncate(i);
        return;
    }

    // MinPLogitsWarper / vLLM's min-p processor in float32: probs = softmax(logits), the cut is
    // min_p (a float32 number) times the largest prob, rounded to float; remove probs below it.
    std::vector<float> probs = detail::torchSoftmax(detail::logitsAsFloat(candidates));
    float top = 0.0f;
    for (float v : probs)
        top = std::max(top, v);
    const float cut = static_cast<float>(number("p")) * top;
    std::vector<bool> remove(data.size());
    for (std::size_t i = 0; i < data.size(); ++i) {
        remove[i] = probs[i] < cut;
        context.noteCut({name(), data[i].id, data[i].logit, probs[i], cut, "p", !remove[i]});
    }
    detail::removeExceptTop(candidates, std::move(remove), std::max<std::size_t>(keep, 1));
}

}  // namespace logitlab::engine
