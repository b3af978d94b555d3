// A seed-sweep source that draws from the real survivors but claims probabilities shifted by
// `shift` from the first outcome to the second: what a subtly wrong sampler (or a biased claim)
// looks like from outside. Shared by the seed-sweep engine and verdict tests.
#pragma once

#include "engine/experiments/sweep_source.h"

namespace logitlab::test {

class MisreportingSource final : public engine::SweepSource {
public:
    MisreportingSource(engine::CandidateList list, double shift) : m_real(list, "real")
    {
        m_ids = m_real.outcomeIds();
        m_claimed = m_real.expected();
        m_claimed[0] -= shift;
        m_claimed[1] += shift;
    }
    std::string describe() const override { return "misreporting"; }
    const std::vector<std::int32_t>& outcomeIds() const override { return m_ids; }
    const std::vector<double>& expected() const override { return m_claimed; }
    void draw(engine::Rng& rng, std::size_t count, std::vector<std::uint32_t>& out) const override
    {
        m_real.draw(rng, count, out);
    }

private:
    engine::CandidateSource m_real;
    std::vector<std::int32_t> m_ids;
    std::vector<double> m_claimed;
};

}  // namespace logitlab::test
