#include "engine/stages/epsilon_stage.h"

#include "engine/core/number_format.h"
#include "engine/kernels/float32_arithmetic.h"
#include "engine/stages/stage_support.h"

#include <algorithm>

namespace logitlab::engine {

EpsilonStage::EpsilonStage(Semantics semantics) : StageBase(semantics)
{
    declare({"epsilon", ParameterKind::Real, 0.0, "lesson, hf: (0, 1), 0 is off; not in llama.cpp or vllm"});
    declare({"min-keep", ParameterKind::Integer, 1, "hf: >= 1"});
}

std::optional<std::string> validateCutoffStage(const SamplerStage& stage, const std::string& hfName)
{
    const Semantics s = stage.semantics();
    if (s == Semantics::LlamaCpp || s == Semantics::Vllm)
        return stage.name() + ": " + semanticsName(s) + " has no " + stage.name() + " sampler (hf only)";
    const double e = stage.number("epsilon");
    if (!(e >= 0.0 && e < 1.0))
        return stage.name() + ": epsilon: hf requires " + hfName + " in (0, 1), got " + formatDouble(e);
    if (stage.number("min-keep") < 1)
        return stage.name() + ": min-keep: hf requires min_tokens_to_keep >= 1, got " +
               formatDouble(stage.number("min-keep"));
    return std::nullopt;
}

void removeBelow(CandidateArray& candidates, double cutoff, std::size_t minKeep, double tolerance,
                 SamplerContext& context, const std::string& stage)
{
    auto& data = candidates.data();
    std::vector<bool> remove(data.size());
    for (std::size_t i = 0; i < data.size(); ++i)
        remove[i] = data[i].p < cutoff - tolerance;  // in exact arithmetic a p on the cut stays
    if (minKeep > 0 && !data.empty()) {
        // HF keeps every token scoring at least the min_keep-th largest score (ties included).
        std::vector<double> logits(data.size());
        for (std::size_t i = 0; i < data.size(); ++i)
            logits[i] = data[i].logit;
        const std::size_t k = std::min(minKeep, logits.size());
        std::nth_element(logits.begin(), logits.begin() + static_cast<std::ptrdiff_t>(k - 1), logits.end(),
                         std::greater<>());
        for (std::size_t i = 0; i < data.size(); ++i)
            if (data[i].logit >= logits[k - 1])
                remove[i] = false;
    }
    for (std::size_t i = 0; i < data.size(); ++i)
        context.noteCut({stage, data[i].id, data[i].logit, data[i].p, cutoff, "p", !remove[i]});
    detail::removeExceptTop(candidates, std::move(remove), 0);
}

std::optional<std::string> EpsilonStage::validate() const { return validateCutoffStage(*this, "epsilon_cutoff"); }

void EpsilonStage::apply(CandidateArray& candidates, SamplerContext& context)
{
    const auto minKeep = static_cast<std::size_t>(number("min-keep"));
    if (libraryArithmetic()) {
        // EpsilonLogitsWarper: softmax(scores) in float32 < epsilon (a Python float, rounded to
        // float32 by the comparison).
        detail::torchSoftmax(candidates);
        removeBelow(candidates, detail::f32(number("epsilon")), minKeep, 0.0, context, name());
        return;
    }
    candidates.softmax();
    removeBelow(candidates, number("epsilon"), minKeep, detail::kBoundaryTolerance, context, name());
}

}  // namespace logitlab::engine
