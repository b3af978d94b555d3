#include "engine/stages/top_n_sigma_stage.h"

#include "engine/stages/stage_support.h"

#include <cmath>

namespace logitlab::engine {

TopNSigmaStage::TopNSigmaStage(Semantics semantics) : StageBase(semantics)
{
    declare({"n", ParameterKind::Real, -1.0, "lesson, llama.cpp: any finite, <= 0 is off; not in hf or vllm"});
}

std::optional<std::string> TopNSigmaStage::validate() const
{
    if (semantics() == Semantics::Hf || semantics() == Semantics::Vllm)
        return name() + ": " + semanticsName(semantics()) + " has no top-n-sigma sampler (llama.cpp only)";
    if (!std::isfinite(number("n")))
        return problem("n", "must be finite");
    return std::nullopt;
}

void TopNSigmaStage::apply(CandidateArray& candidates, SamplerContext& /*context*/)
{
    if (candidates.size() <= 1)
        return;
    double maxLogit = detail::kNegInf;
    double sum = 0.0;
    std::size_t finite = 0;
    for (const auto& t : candidates.data())
        if (!detail::masked(t)) {
            maxLogit = std::max(maxLogit, t.logit);
            sum += t.logit;
            ++finite;
        }
    if (finite == 0)
        return;
    const double mean = sum / static_cast<double>(finite);
    double squares = 0.0;
    for (const auto& t : candidates.data())
        if (!detail::masked(t))
            squares += (t.logit - mean) * (t.logit - mean);
    const double sigma = std::sqrt(squares / static_cast<double>(finite));
    const double threshold = maxLogit - number("n") * sigma;
    for (auto& t : candidates.data())
        if (t.logit < threshold)
            t.logit = detail::kNegInf;
    candidates.softmax();
}

}  // namespace logitlab::engine
