// Runs a seed sweep over whole replies ("source": "sequence"): one work item per seed, each
// generating the seed's reply with its own loop of the built-in model (makeLoop with that seed,
// so a seed's reply does not depend on the other seeds, the split or the thread count); the
// replies are merged in seed order and counted (engine::countReplies). Tables for the CLI's
// CSV and the page: the distinct replies, the seeds, the first-difference steps.
#pragma once

#include "app/io/provenance.h"
#include "app/kinds/experiment_result.h"
#include "app/kinds/result_table.h"
#include "app/kinds/seed_sweep_spec.h"
#include "app/run/experiment_runner.h"
#include "engine/experiments/reply_census.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

namespace logitlab::app {

struct SequenceSweepOutcome {
    RunStatus status;
    std::vector<std::uint64_t> seeds;                // in the spec's order
    std::vector<std::vector<std::int32_t>> replies;  // per seed
    engine::ReplyCensus census;
    QStringList replyTexts;   // per distinct reply (census order)
    QString chain;            // the chain as evaluated, for titles
    std::uint64_t draws = 0;  // model passes (the page's status line)
    double seconds = 0.0;
};

// A GGUF model's file is relative to `baseDir`; each seed runs on a KV cache of its own (the
// weights shared), and the run is refused before it starts when its passes times the model's
// weights exceed kMaxModelWork (gguf_model_file.h).
SequenceSweepOutcome runSequenceSweep(const SeedSweepSpec& spec, const QString& baseDir, const QString& source,
                                      int threads, const WorkControl& control);

// Every parameter and the file's canonical JSON (a GGUF model with its SHA-256); not the thread count.
Provenance sequenceSweepProvenance(const SeedSweepSpec& spec, const QString& baseDir);
// The provenance plus the sweep's overall results (distinct replies, the reference reply).
Provenance sequenceSweepResultHeader(const Provenance& provenance, const SequenceSweepOutcome& outcome);

struct SequenceSweepRun {
    SeedSweepSpec spec;
    SequenceSweepOutcome outcome;
};
// Tables <name>.csv (distinct replies), <name>-seeds.csv, <name>-first-difference.csv; details
// hold a std::shared_ptr<const SequenceSweepRun> for the charts.
ExperimentResult sequenceSweepResult(const SeedSweepSpec& spec, const QString& baseDir, SequenceSweepOutcome outcome,
                                     int threads);

ResultTable sequenceRepliesTable(std::shared_ptr<const SequenceSweepOutcome> outcome);
ResultTable sequenceSeedsTable(std::shared_ptr<const SequenceSweepOutcome> outcome);
ResultTable sequenceFirstDifferenceTable(std::shared_ptr<const SequenceSweepOutcome> outcome);

}  // namespace logitlab::app
