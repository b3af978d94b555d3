#include "dynamic_temperature_stage.h"

#include "stage_support.h"
#include "temperature_stage.h"

#include <algorithm>
#include <cmath>

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

}  // namespace logitlab::engine
