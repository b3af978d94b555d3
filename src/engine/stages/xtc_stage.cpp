#include "engine/stages/xtc_stage.h"

#include "engine/kernels/float32_arithmetic.h"
#include "engine/rng/mulberry32.h"

#include <cmath>

namespace logitlab::engine {

XtcStage::XtcStage(Semantics semantics) : StageBase(semantics), m_rng(Mulberry32(0))
{
    declare(
        {"probability", ParameterKind::Real, 0.0, "lesson, llama.cpp: <= 0 is off, >= 1 always; not in hf or vllm"});
    declare({"threshold", ParameterKind::Real, 0.1, "lesson, llama.cpp: > 0.5 is off"});
    declareMinKeep(true, false);
}

std::optional<std::string> XtcStage::validate() const
{
    if (semantics() == Semantics::Hf || semantics() == Semantics::Vllm)
        return name() + ": " + semanticsName(semantics()) + " has no XTC sampler (llama.cpp only)";
    if (!std::isfinite(number("probability")))
        return problem("probability", "must be finite");
    if (!std::isfinite(number("threshold")))
        return problem("threshold", "must be finite");
    return checkMinKeep();
}

void XtcStage::apply(CandidateArray& candidates, SamplerContext& /*context*/)
{
    if (candidates.size() < 2)
        return;
    if (m_rng.get().nextDouble() > number("probability"))
        return;
    // In library arithmetic: llama.cpp's float softmax after the sort, p >= threshold in float.
    const bool library = libraryArithmetic();
    if (library) {
        candidates.sortDescending();
        detail::llamaSoftmax(candidates);
    } else {
        candidates.softmax();
        candidates.sortDescending();
    }
    const double threshold = library ? detail::f32(number("threshold")) : number("threshold");
    std::size_t last = 0;  // last index of the leading run with p >= threshold
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        if (candidates[i].p >= threshold)
            last = i;
        else
            break;
    }
    if (last > 0 && candidates.size() - last >= minKeep()) {
        auto& data = candidates.data();
        data.erase(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(last));
    }
}

}  // namespace logitlab::engine
