#include "engine/stages/eta_stage.h"

#include "engine/kernels/float32_arithmetic.h"
#include "engine/stages/epsilon_stage.h"
#include "engine/stages/stage_support.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace logitlab::engine {

EtaStage::EtaStage(Semantics semantics) : StageBase(semantics)
{
    declare({"epsilon", ParameterKind::Real, 0.0, "lesson, hf: (0, 1), 0 is off; not in llama.cpp or vllm"});
    declare({"min-keep", ParameterKind::Integer, 1, "hf: >= 1"});
}

std::optional<std::string> EtaStage::validate() const { return validateCutoffStage(*this, "eta_cutoff"); }

void EtaStage::apply(CandidateArray& candidates, SamplerContext& context)
{
    const auto minKeep = static_cast<std::size_t>(number("min-keep"));
    if (libraryArithmetic()) {
        // EtaLogitsWarper in float32: epsilon is a float32 tensor; the entropy is
        // Categorical(logits).entropy(): logits - logsumexp(logits) (clamped to the lowest float
        // so a masked token adds 0), times softmax, summed and negated.
        const std::vector<float> logits = detail::logitsAsFloat(candidates);
        float maxLogit = -std::numeric_limits<float>::infinity();
        for (float l : logits)
            maxLogit = std::max(maxLogit, l);
        float sum = 0.0f;
        for (float l : logits)
            sum += std::exp(l - maxLogit);
        const float logSumExp = maxLogit + std::log(sum);
        detail::torchSoftmax(candidates);
        float plogp = 0.0f;
        for (std::size_t i = 0; i < logits.size(); ++i)
            plogp += std::max(logits[i] - logSumExp, std::numeric_limits<float>::lowest()) *
                     static_cast<float>(candidates[i].p);
        const auto epsilon = static_cast<float>(number("epsilon"));
        const float eta = std::min(epsilon, std::sqrt(epsilon) * std::exp(plogp));  // exp(-H), H = -plogp
        removeBelow(candidates, eta, minKeep, 0.0, context, name());
        return;
    }
    candidates.softmax();
    const double epsilon = number("epsilon");
    const double eta = std::min(epsilon, std::sqrt(epsilon) * std::exp(-detail::entropy(candidates)));
    removeBelow(candidates, eta, minKeep, detail::kBoundaryTolerance, context, name());
}

}  // namespace logitlab::engine
