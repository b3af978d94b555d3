// What the Explorer shows at one moment, as a value: the shared table of logits (an immutable
// engine::PreparedDistribution, up to 262,144 tokens), the chain, and what the sampler makes of
// the one under the other (engine::SamplerAnalysis: probabilities at T, survivors, the cut).
// The Explorer's table model holds one and edits it; the probability chart reads one, on screen
// (the model's) and in `logitlab-cli run` (built from an ExplorerRun), so the chart needs no
// Qt item model and the charts library no undo stack.
#pragma once

#include "engine/sampler/distribution.h"
#include "engine/sampler/explorer_chain.h"
#include "engine/sampler/prepared_distribution.h"
#include "engine/sampler/sampler_analysis.h"
#include "engine/sampler/sampler_settings.h"

#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace logitlab::ui {

class ExplorerSnapshot {
public:
    ExplorerSnapshot();  // no tokens
    // `analysis`, if given, is analyse(*table, chain) worked out elsewhere (a loader's thread).
    // Precondition: table is not null.
    ExplorerSnapshot(std::shared_ptr<const engine::PreparedDistribution> table, const engine::ExplorerChain& chain,
                     std::optional<engine::SamplerAnalysis> analysis = std::nullopt);

    // The computed columns of `table` under `chain`: empty (all probabilities 0) when the
    // logits or the chain cannot be run. Pure, so a loader can call it on a worker thread.
    static engine::SamplerAnalysis analyse(const engine::PreparedDistribution& table,
                                           const engine::ExplorerChain& chain);

    // A new table and chain together (one analysis).
    void reset(std::shared_ptr<const engine::PreparedDistribution> table, const engine::ExplorerChain& chain,
               std::optional<engine::SamplerAnalysis> analysis = std::nullopt);
    // A new chain over the same table; false (and nothing done) when it equals the current one.
    bool setChain(const engine::ExplorerChain& chain);
    // A new table under the same chain; `analyse` false keeps the analysis (a rename: names do
    // not change what the sampler keeps).
    void setTable(std::shared_ptr<const engine::PreparedDistribution> table, bool reanalyse = true);

    const std::shared_ptr<const engine::PreparedDistribution>& table() const { return m_table; }
    const engine::Distribution& distribution() const { return m_table->distribution; }
    const engine::SamplerSettings& settings() const { return m_chain.lesson; }
    const engine::ExplorerChain& chain() const { return m_chain; }
    const engine::SamplerAnalysis& analysis() const { return m_analysis; }
    const engine::CandidateList& survivors() const { return m_analysis.survivors; }
    const std::vector<double>& probabilities() const { return m_analysis.probabilities; }  // at T, by id
    // Ids by descending logit, lower id first on ties: the order of probability at every T > 0.
    const std::vector<std::int32_t>& idsByLogit() const { return m_table->byLogit; }
    // Ids by token name, lower id first on equal names.
    const std::vector<std::int32_t>& idsByToken() const { return m_table->byToken; }
    std::size_t size() const { return static_cast<std::size_t>(m_table->distribution.logits.size()); }
    QString tokenName(std::int32_t id) const;
    // The name as charts and readouts show it: cut to ui::kShownTokenChars (token_display.h).
    QString shownName(std::int32_t id) const;
    // Position of the token in survivors(), or -1 when it was cut.
    int survivorPosition(std::int32_t id) const { return m_survivorIndex[static_cast<std::size_t>(id)]; }
    // The rule that made the cut, in words: "cumulative 0.918 > 0.9 after 'items'".
    QString cutDescription() const;

private:
    void recompute(std::optional<engine::SamplerAnalysis> analysis = std::nullopt);

    std::shared_ptr<const engine::PreparedDistribution> m_table;  // never null
    engine::ExplorerChain m_chain;
    engine::SamplerAnalysis m_analysis;
    std::vector<int> m_survivorIndex;  // position in survivors(), or -1, by id
};

}  // namespace logitlab::ui
