// DRY, "don't repeat yourself" (llama.cpp): a token that would extend a sequence already repeated
// at least allowed-length times loses multiplier * base^(length - allowed-length) from its logit.
// Sequence breakers (token ids here: LogitLab has no tokenizer to expand strings) cap the length.
#pragma once

#include "engine/models/suffix_automaton.h"
#include "engine/stages/sampler_stage.h"

#include <cstddef>
#include <map>
#include <optional>
#include <set>

namespace logitlab::engine {

class DryStage final : public StageBase<DryStage> {
public:
    explicit DryStage(Semantics semantics);
    // A copy has the parameters, not the automaton: that is a cache of the history (which the
    // context holds), rebuilt by the copy's first apply(). Copying it made a loop's snapshot per
    // step cost the whole history, N^2 over a decode (8 GB for a 96 KB prompt).
    DryStage(const DryStage& other);
    DryStage& operator=(const DryStage& other);
    std::size_t heldHistoryTokens() const override { return m_automaton.text().size(); }
    std::string name() const override { return "dry"; }
    std::optional<std::string> validate() const override;
    bool active() const override;
    void apply(CandidateArray& candidates, SamplerContext& context) override;

protected:
    void parametersChanged() override;

private:
    // The longest match length per following token: over the whole history from the automaton,
    // over a last-n window by the Z-algorithm.
    std::map<std::int32_t, std::size_t> wholeHistoryLengths(const std::vector<std::int32_t>& history,
                                                            std::size_t allowed);

    std::set<std::int32_t> m_breakers;
    // The automaton of the history seen last (a decode extends it by one token per draw) and the
    // position of the latest breaker in it.
    SuffixAutomaton m_automaton;
    std::optional<std::size_t> m_lastBreaker;
};

}  // namespace logitlab::engine
