// The Explorer's views of one saved state, computed without the window: the table (p at T,
// survivors, renormalised p, rank), the temperature sweep of the most likely tokens, the seeded
// draws against their expected counts, and the same values under every semantics preset. What
// `logitlab-cli run` does with an Explorer state file, and the tables the page exports.
#pragma once

#include "app/kinds/experiment_result.h"
#include "app/kinds/explorer_state.h"
#include "app/run/experiment_runner.h"
#include "engine/experiments/temperature_sweep.h"
#include "engine/sampler/explorer_draws.h"
#include "engine/sampler/prepared_distribution.h"
#include "engine/sampler/sampler_analysis.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

namespace logitlab::app {

inline constexpr int kExplorerTrackedTokens = 5;    // curves in the temperature sweep
inline constexpr int kExplorerComparedTokens = 12;  // tokens in the compare chart and table

struct ExplorerRun {
    ExplorerState state;
    std::shared_ptr<const engine::PreparedDistribution> table;
    std::shared_ptr<const engine::SamplerAnalysis> analysis;
    std::vector<engine::SweepPoint> sweep;                       // at sweepTemperatures(), chain at T = 1 otherwise
    std::vector<std::int32_t> tracked;                           // the sweep's tokens, most likely first
    engine::ExplorerDraws draws;                                 // empty when the chain leaves nothing to draw
    double drawsPValue = NAN;                                    // chi-square of the draws (NaN: no valid test)
    QString drawsTest;                                           // the test in words, or why there is none
    std::vector<engine::Result<engine::CandidateList>> compare;  // allSemantics() order
    std::vector<std::int32_t> compared;                          // the compared tokens, most likely first
};

// The state's logits and chain checked, then every view computed. Errors name the source.
engine::Result<ExplorerRun> runExplorer(ExplorerState state, const QString& source, const WorkControl& control);

// The chain in words, as the page shows it: "llama.cpp: top-k=40 → ... → renormalise → draw".
QString explorerChainText(const engine::ExplorerChain& chain);
// What the sweep's survivor curve counts: "top-p 0.9, min-p 0.05", or "no filter".
QString explorerSweepFilters(const engine::ExplorerChain& chain);

// The token table's columns, declared once for the CSV and the page's editable table: name,
// title, kind and meaning; no cells (explorerTokenTable gives them).
const std::vector<ResultColumn>& explorerTokenColumns();
// The column of explorerTokenColumns() named `name` ("p_renormalised").
const ResultColumn& explorerTokenColumn(const QString& name);
// The token table as the page shows and exports it (one row per token, by id).
ResultTable explorerTokenTable(std::shared_ptr<const engine::PreparedDistribution> table,
                               std::shared_ptr<const engine::SamplerAnalysis> analysis);
// The other views' tables: "-sweep", "-draws", "-compare".
ResultTable explorerSweepTable(const ExplorerRun& run);
ResultTable explorerDrawsTable(const ExplorerRun& run);
ResultTable explorerCompareTable(const ExplorerRun& run);

// The whole run as a result: four tables, the provenance, a summary line; details hold the run.
ExperimentResult explorerResult(ExplorerRun run, const QString& name, const QString& source);

}  // namespace logitlab::app
