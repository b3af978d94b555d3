// Runs a seed-sweep experiment file on the runner (blocks of seeds as work items, each seed on
// its own generator), summarises it, replays the first seed to check it reproduces bit for bit,
// and writes the per-token and per-seed tables as CSV with provenance. Used by the CLI and the
// GUI page alike.
#pragma once

#include "app/io/provenance.h"
#include "app/kinds/experiment_result.h"
#include "app/kinds/result_table.h"
#include "app/kinds/seed_sweep_spec.h"
#include "app/run/experiment_runner.h"
#include "engine/experiments/seed_sweep.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

namespace logitlab::app {

struct SeedSweepOutcome {
    RunStatus status;
    std::vector<engine::SeedResult> results;  // one per seed, in the spec's order
    engine::SeedSweepSummary summary;
    QStringList tokenNames;        // per outcome, most probable first
    QString chain;                 // the chain as evaluated, for titles
    bool replayIdentical = false;  // the first seed, drawn again, gave the same hash
    std::uint64_t draws = 0;
    double seconds = 0.0;
};

SeedSweepOutcome runSeedSweep(const SeedSweepSpec& spec, const QString& baseDir, const QString& source, int threads,
                              const WorkControl& control);

// The verdict every front end shows: tested, and the per-seed p-values look uniform (KS p >= 0.01).
inline constexpr double kSeedSweepAlpha = 0.01;
inline bool seedSweepConsistent(const engine::SeedSweepSummary& summary)
{
    return summary.tested() && summary.chiSquareUniformity.pValue >= kSeedSweepAlpha;
}

// The verdict in plain words for a class, from the same statistics as seedSweepConsistent: the
// counts vary by seed as chance predicts (the sampler looks right), or more than that (the draws
// do not follow the claimed probabilities), or there is nothing the test can say (too few draws
// per token, or one outcome only).
QString seedSweepPlainWords(const engine::SeedSweepSummary& summary);

// The sampling keys every seed sweep's provenance shares, in order: semantics, chain, the
// arithmetic used, rng, seeds.
Provenance& addSamplingProvenance(Provenance& p, const SeedSweepSpec& spec);
// Every parameter and the file's canonical JSON; not the thread count (the CSV must not depend
// on it).
Provenance seedSweepProvenance(const SeedSweepSpec& spec, const QString& baseDir);
// The provenance plus the sweep's overall results (KS, pooled fit, replay, first difference).
Provenance seedSweepResultHeader(const Provenance& provenance, const SeedSweepOutcome& outcome);

// A finished (or stopped) run as the result every kind returns: the per-token and per-seed
// tables, the provenance with the sweep's overall results, a summary line; details hold a
// std::shared_ptr<const SeedSweepRun> for the charts.
struct SeedSweepRun {
    SeedSweepSpec spec;
    SeedSweepOutcome outcome;
};
ExperimentResult seedSweepResult(const SeedSweepSpec& spec, const QString& baseDir, SeedSweepOutcome outcome,
                                 int threads);

// The per-token table (<name>.csv) and the per-seed table (<name>-seeds.csv), as the result
// tables the CSV and the page both read.
ResultTable seedSweepTokensTable(std::shared_ptr<const SeedSweepOutcome> outcome);
ResultTable seedSweepSeedsTable(std::shared_ptr<const SeedSweepOutcome> outcome);

// Tokens shown as their own count column in the per-seed table (the most probable ones).
inline constexpr int kSeedTableTokenColumns = 20;

}  // namespace logitlab::app
