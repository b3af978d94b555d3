// A seed sweep at every step of an imported multi-step logits file in turn (issue 14: the file
// distribution's "steps" range, step_range.h): for each step, exactly the one-step sweep with
// "row" set to that step (runSeedSweep), reduced to one row of results. Steps run one after
// another, each on the threaded runner; the file is memory-mapped and read one row at a time,
// never whole into memory. Only what is valid at a step is reported: the goodness-of-fit
// p-values are empty where the sweep has no test (one outcome, or too few draws per token).
#pragma once

#include "app/io/provenance.h"
#include "app/kinds/experiment_result.h"
#include "app/kinds/result_table.h"
#include "app/kinds/seed_sweep_job.h"
#include "app/kinds/seed_sweep_spec.h"
#include "app/run/experiment_runner.h"
#include "engine/core/work_limits.h"

#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace logitlab::app {

struct StepSweepRow {
    std::uint64_t step = 0;           // 0-based step of the file's array
    double entropyBits = 0.0;         // of the step's logits at T = 1, before the chain
    std::uint64_t outcomes = 0;       // tokens the chain leaves with p > 0
    std::uint64_t distinctDrawn = 0;  // of those, drawn at least once over every seed
    int pooledBins = 0;               // bins of the per-seed tests after pooling
    std::optional<double> ksP;        // KS of the per-seed chi-square p-values; none: not valid here
    std::optional<double> pooledP;    // pooled chi-square over every seed; none: not valid here
    QString noTest;                   // why there is no test, when there is none
    QString mostDrawn;                // the token drawn most over every seed
    bool consistent = false;          // seedSweepConsistent at this step
};

struct StepSweepOutcome {
    RunStatus status;
    std::vector<StepSweepRow> rows;  // in step order
    std::uint64_t draws = 0;
    double seconds = 0.0;
};

// The one-step sweep at `step`: the spec with the range replaced by that row.
SeedSweepSpec stepSpec(const SeedSweepSpec& spec, std::uint64_t step);

// What sweeping `steps` steps costs: steps x seeds x draws draws against the seed sweep's limit,
// a row and a chart point per step. runStepSweep refuses a sweep over a limit before any step.
engine::WorkEstimate stepSweepEstimate(const SeedSweepSpec& spec, std::uint64_t steps, std::size_t vocabulary);

// The spec's distribution must be a file with "steps". Errors name the file and key.
StepSweepOutcome runStepSweep(const SeedSweepSpec& spec, const QString& baseDir, const QString& source, int threads,
                              const WorkControl& control);

// One row of the per-step table from a finished one-step sweep.
StepSweepRow stepSweepRow(std::uint64_t step, double entropyBits, const SeedSweepOutcome& outcome);

struct StepSweepRun {
    SeedSweepSpec spec;
    StepSweepOutcome outcome;
};
// Table <name>.csv (one row per step); details hold a std::shared_ptr<const StepSweepRun>.
ExperimentResult stepSweepResult(const SeedSweepSpec& spec, const QString& baseDir, StepSweepOutcome outcome,
                                 int threads);
ResultTable stepSweepTable(std::shared_ptr<const StepSweepOutcome> outcome);

}  // namespace logitlab::app
