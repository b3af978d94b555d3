#include "eta_stage.h"

#include "epsilon_stage.h"
#include "stage_support.h"

#include <algorithm>
#include <cmath>

namespace logitlab::engine {

EtaStage::EtaStage(Semantics semantics) : StageBase(semantics)
{
    declare({"epsilon", ParameterKind::Real, 0.0, "lesson, hf: (0, 1), 0 is off; not in llama.cpp or vllm"});
    declare({"min-keep", ParameterKind::Integer, 1, "hf: >= 1"});
}

std::optional<std::string> EtaStage::validate() const
{
    return validateCutoffStage(*this, "eta_cutoff");
}

void EtaStage::apply(CandidateArray& candidates, SamplerContext& /*context*/)
{
    candidates.softmax();
    const double epsilon = number("epsilon");
    const double eta = std::min(epsilon, std::sqrt(epsilon) * std::exp(-detail::entropy(candidates)));
    removeBelow(candidates, eta, static_cast<std::size_t>(number("min-keep")));
}

}  // namespace logitlab::engine
