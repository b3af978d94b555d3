#include "engine/experiments/sweep_source.h"

namespace logitlab::engine {

CandidateSource::CandidateSource(CandidateList survivors, std::string description)
    : m_walk(std::move(survivors)), m_description(std::move(description))
{
    for (const Candidate& c : m_walk.list()) {
        m_ids.push_back(c.id);
        m_expected.push_back(c.p);
    }
}

void CandidateSource::draw(Rng& rng, std::size_t count, std::vector<std::uint32_t>& outcomes) const
{
    for (std::size_t i = 0; i < count; ++i)
        outcomes.push_back(static_cast<std::uint32_t>(m_walk.indexAt(rng.nextDouble())));
}

}  // namespace logitlab::engine
