#include "engine/stages/dynamic_temperature_stage.h"

#include "engine/kernels/float32_arithmetic.h"
#include "engine/stages/stage_support.h"
#include "engine/stages/temperature_stage.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace logitlab::engine {

DynamicTemperatureStage::DynamicTemperatureStage(Semantics semantics) : StageBase(semantics)
{
    declare({"t", ParameterKind::Real, 1.0, "centre temperature, finite"});
    declare({"delta", ParameterKind::Real, 0.0, "half-width of the range; <= 0 is plain temperature"});
    declare({"exponent", ParameterKind::Real, 1.0, "finite, >= 0"});
}

std::optional<std::string> DynamicTemperatureStage::validate() const
{
    if (semantics() == Semantics::Hf || semantics() == Semantics::Vllm)
        return name() + ": " + semanticsName(semantics()) + " has no dynamic temperature (llama.cpp only)";
    for (const char* p : {"t", "delta", "exponent"})
        if (!std::isfinite(number(p)))
            return problem(p, "must be finite");
    if (number("exponent") < 0.0)
        return problem("exponent", "must be >= 0 (a negative power of a zero entropy is infinite)");
    return std::nullopt;
}

void DynamicTemperatureStage::apply(CandidateArray& candidates, SamplerContext& context)
{
    if (libraryArithmetic()) {
        applyLibrary(candidates, context);
        return;
    }
    const double t = number("t");
    const double delta = number("delta");
    double dynamic = t;
    if (delta > 0.0) {
        if (candidates.size() <= 1)
            return;
        const double low = std::max(0.0, t - delta);
        const double high = detail::saturated(t + delta);  // t + delta may overflow; the range stays finite
        candidates.softmax();
        candidates.sortDescending();
        const double maxEntropy = std::log(static_cast<double>(candidates.size()));
        const double normalised = detail::entropy(candidates) / maxEntropy;
        dynamic = low + (high - low) * std::pow(normalised, number("exponent"));
    }
    m_last = dynamic;
    if (candidates.empty())
        return;
    if (dynamic <= 0.0 || divisionOverflows(candidates, context, dynamic)) {
        // llama.cpp's T <= 0 rule; with delta > 0 it would divide by 0 here, which gives NaN. A T
        // so small that l / T overflows is its T -> 0 limit, the same greedy mask.
        detail::maskAllBut(candidates, candidates.argmax());
        candidates.softmax();
        context.temperatureScale = 0.0;
        return;
    }
    divideLogits(candidates, context, dynamic);
    if (delta > 0.0)
        candidates.softmax();
}

void DynamicTemperatureStage::applyLibrary(CandidateArray& candidates, SamplerContext& context)
{
    const float t = static_cast<float>(number("t"));
    const float delta = static_cast<float>(number("delta"));
    float dynamic = t;
    if (delta > 0.0f) {
        if (candidates.size() <= 1)
            return;
        const float low = std::max(0.0f, t - delta);
        // t + delta may overflow a float; the range stays finite (llama.cpp would divide by inf).
        const float high = std::min(t + delta, std::numeric_limits<float>::max());
        const float maxEntropy = -std::log(1.0f / static_cast<float>(candidates.size()));
        // llama_sampler_softmax_impl(cur_p, true): sort, then the float softmax.
        candidates.sortDescending();
        detail::llamaSoftmax(candidates);
        float entropy = 0.0f;
        for (const auto& c : candidates.data()) {
            const float p = static_cast<float>(c.p);
            if (p > 0.0f)
                entropy -= p * std::log(p);
        }
        const float normalised = entropy / maxEntropy;
        dynamic = low + (high - low) * std::pow(normalised, static_cast<float>(number("exponent")));
    }
    m_last = dynamic;
    if (candidates.empty())
        return;
    const float top = static_cast<float>(candidates[candidates.argmax()].logit);
    if (!(dynamic > 0.0f) || std::isinf(top / dynamic)) {
        // llama.cpp's T <= 0 rule (the first maximum stays, the others go to -inf); a T so small
        // that l / T overflows a float is its T -> 0 limit, the same greedy mask.
        detail::maskAllBut(candidates, candidates.argmax());
        context.temperatureScale = 0.0;
    } else {
        for (auto& c : candidates.data())
            c.logit = static_cast<double>(static_cast<float>(c.logit) / dynamic);
        context.temperatureScale = detail::saturated(context.temperatureScale * static_cast<double>(dynamic));
    }
    if (!(delta > 0.0f))
        return;
    // The probabilities after a dynamic temperature: exp in double from the first entry's logit,
    // a double sum, each p held in float and divided by the sum.
    const double first = candidates[0].logit;
    double sum = 0.0;
    for (auto& c : candidates.data()) {
        const double e = std::exp(c.logit - first);
        c.p = detail::f32(e);
        sum += e;
    }
    for (auto& c : candidates.data())
        c.p = detail::f32(c.p / sum);
}

}  // namespace logitlab::engine
