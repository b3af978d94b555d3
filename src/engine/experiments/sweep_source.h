// Where a seed sweep's draws come from. The sweep only needs outcomes, the probability the
// source claims for each, and a way to draw with a given generator, so a later source can run
// whole decodes of a model behind the same interface.
#pragma once

#include "engine/rng/rng.h"
#include "engine/sampler/candidate.h"
#include "engine/sampler/cumulative_walk.h"

#include <cstdint>
#include <string>
#include <vector>

namespace logitlab::engine {

class SweepSource {
public:
    virtual ~SweepSource() = default;

    virtual std::string describe() const = 0;
    // The outcomes draws fall into, most probable first, as token ids, and the probability the
    // source claims for each (summing to 1).
    virtual const std::vector<std::int32_t>& outcomeIds() const = 0;
    virtual const std::vector<double>& expected() const = 0;
    // Appends `count` outcome indices drawn with `rng` to `outcomes`.
    virtual void draw(Rng& rng, std::size_t count, std::vector<std::uint32_t>& outcomes) const = 0;
};

// One fixed next-token distribution: the survivors of a sampler, drawn with the lesson's walk
// (so seed 42 reproduces the lesson's counts exactly).
class CandidateSource final : public SweepSource {
public:
    CandidateSource(CandidateList survivors, std::string description);

    std::string describe() const override { return m_description; }
    const std::vector<std::int32_t>& outcomeIds() const override { return m_ids; }
    const std::vector<double>& expected() const override { return m_expected; }
    void draw(Rng& rng, std::size_t count, std::vector<std::uint32_t>& outcomes) const override;

private:
    CumulativeWalk m_walk;
    std::vector<std::int32_t> m_ids;
    std::vector<double> m_expected;
    std::string m_description;
};

}  // namespace logitlab::engine
