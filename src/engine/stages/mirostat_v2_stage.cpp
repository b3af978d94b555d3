#include "engine/stages/mirostat_v2_stage.h"

#include <cmath>

namespace logitlab::engine {

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

}  // namespace logitlab::engine
