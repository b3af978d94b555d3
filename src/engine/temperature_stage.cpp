#include "temperature_stage.h"

#include "number_format.h"
#include "softmax_kernel.h"
#include "stage_support.h"

#include <cmath>

namespace logitlab::engine {

TemperatureStage::TemperatureStage(Semantics semantics) : StageBase(semantics)
{
    declare({"t", ParameterKind::Real, 1.0,
             "lesson: >= 0 (0 is greedy); llama.cpp: any (<= 0 is greedy over the survivors); "
             "hf: > 0; vllm: >= 0 (< 1e-5 is greedy)"});
}

std::optional<std::string> TemperatureStage::validate() const
{
    const double t = number("t");
    if (!std::isfinite(t))
        return problem("t", "must be finite");
    switch (semantics()) {
    case Semantics::Lesson:
        if (t < 0.0)
            return problem("t", "must be 0 (greedy) or greater, got " + formatDouble(t));
        break;
    case Semantics::Hf:
        if (t <= 0.0)
            return problem("t", "hf requires a temperature > 0 (greedy decoding is do_sample=False: use the "
                                "greedy stage), got " + formatDouble(t));
        break;
    case Semantics::Vllm:
        if (t < 0.0)
            return problem("t", "vllm requires a temperature >= 0, got " + formatDouble(t));
        break;
    case Semantics::LlamaCpp:
        break;
    }
    return std::nullopt;
}

bool divisionOverflows(const CandidateArray& candidates, const SamplerContext& context, double t)
{
    if (candidates.empty() || !(t > 0.0))
        return false;
    // A second temperature can also underflow the product of the two that p_raw divides by.
    return detail::scaledMaxOverflows(candidates[candidates.argmax()].logit, t)
        || (context.temperatureScale > 0.0 && context.temperatureScale * t == 0.0);
}

void divideLogits(CandidateArray& candidates, SamplerContext& context, double t)
{
    for (auto& c : candidates.data())
        c.logit /= t;
    context.temperatureScale = detail::saturated(context.temperatureScale * t);
}

namespace {

// The argmax alone (first maximum in array order): the lesson's and vLLM's greedy.
void keepArgmax(CandidateArray& candidates, SamplerContext& context)
{
    const TokenData best = candidates[candidates.argmax()];
    candidates.data().assign(1, best);
    context.temperatureScale = 0.0;
}

}  // namespace

void TemperatureStage::apply(CandidateArray& candidates, SamplerContext& context)
{
    const double t = number("t");
    if (candidates.empty())
        return;
    if (divisionOverflows(candidates, context, t)) {
        // l / T would overflow (T = 1e-320): the T -> 0 limit, greedy by the preset's own rule.
        if (semantics() == Semantics::LlamaCpp) {
            detail::maskAllBut(candidates, candidates.argmax());
            context.temperatureScale = 0.0;
        } else {
            keepArgmax(candidates, context);
        }
        return;
    }
    switch (semantics()) {
    case Semantics::Lesson:
        if (t == 0.0) {
            keepArgmax(candidates, context);
            return;
        }
        break;
    case Semantics::LlamaCpp:
        if (t <= 0.0) {  // greedy mask: the others stay in the array at -inf
            detail::maskAllBut(candidates, candidates.argmax());
            context.temperatureScale = 0.0;
            return;
        }
        break;
    case Semantics::Vllm:
        if (t < kVllmGreedyBelow) {
            keepArgmax(candidates, context);
            return;
        }
        break;
    case Semantics::Hf:
        break;
    }
    divideLogits(candidates, context, t);
}

}  // namespace logitlab::engine
