#include "engine/stages/temperature_stage.h"

#include "engine/core/number_format.h"
#include "engine/kernels/float32_arithmetic.h"
#include "engine/kernels/softmax_kernel.h"
#include "engine/stages/stage_support.h"

#include <cmath>

namespace logitlab::engine {

TemperatureStage::TemperatureStage(Semantics semantics) : StageBase(semantics)
{
    declare({"t", ParameterKind::Real, 1.0,
             "lesson: >= 0 (0 is greedy); llama.cpp: any (<= 0 is greedy over the survivors); "
             "hf: > 0; vllm: >= 0 (0 is greedy, (0, 0.01) is raised to 0.01)"});
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
                                "greedy stage), got " +
                                    formatDouble(t));
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

double effectiveTemperature(Semantics semantics, double t)
{
    if (semantics == Semantics::Vllm && t > 0.0 && t < TemperatureStage::kVllmMinTemperature)
        return TemperatureStage::kVllmMinTemperature;
    return t;
}

bool divisionOverflows(const CandidateArray& candidates, const SamplerContext& context, double t)
{
    if (candidates.empty() || !(t > 0.0))
        return false;
    // A second temperature can also underflow the product of the two that p_raw divides by.
    return detail::scaledMaxOverflows(candidates[candidates.argmax()].logit, t) ||
           (context.temperatureScale > 0.0 && context.temperatureScale * t == 0.0);
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
    double t = effectiveTemperature(semantics(), number("t"));
    if (candidates.empty())
        return;
    if (libraryArithmetic()) {
        // The libraries hold T in float32 (llama.cpp's float temp, vLLM's float32 tensor; HF's
        // Python float is rounded to float32 by the float32 division): a T that rounds to 0 is
        // llama.cpp's greedy, and one whose quotient overflows a float is the T -> 0 limit.
        t = detail::f32(t);
        const double top = candidates[candidates.argmax()].logit;
        if (t > 0.0 && std::isinf(static_cast<float>(top) / static_cast<float>(t)))
            t = 1e-320;  // divisionOverflows() below takes it as greedy by the preset's rule
    }
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
        if (t == 0.0) {  // the floor leaves 0 as the only temperature below 1e-5
            keepArgmax(candidates, context);
            return;
        }
        break;
    case Semantics::Hf:
        break;
    }
    divideLogits(candidates, context, t);
    if (libraryArithmetic())
        for (auto& c : candidates.data())
            c.logit = detail::f32(c.logit);  // float / float: the double quotient rounded once
}

}  // namespace logitlab::engine
