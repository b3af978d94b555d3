#include "mirostat_v2_stage.h"

#include "mirostat_v1_stage.h"

#include <cmath>

namespace logitlab::engine {

MirostatV2Stage::MirostatV2Stage(Semantics semantics) : StageBase(semantics)
{
    declare({"tau", ParameterKind::Real, 5.0, "target surprise in bits, finite"});
    declare({"eta", ParameterKind::Real, 0.1, "learning rate, finite"});
    reset();
}

std::optional<std::string> MirostatV2Stage::validate() const
{
    return validateMirostat(*this);
}

void MirostatV2Stage::apply(CandidateArray& candidates, SamplerContext& /*context*/)
{
    if (candidates.empty())
        return;
    candidates.softmax();
    candidates.sortDescending();
    std::size_t keep = 0;
    while (keep < candidates.size() && !(-std::log2(candidates[keep].p) > m_mu))
        ++keep;
    candidates.truncate(std::max<std::size_t>(keep, 1));
    candidates.softmax();
}

void MirostatV2Stage::accept(const CandidateArray& final, std::size_t index, SamplerContext& /*context*/)
{
    updateMu(m_mu, *this, final[index].p);
}

}  // namespace logitlab::engine
