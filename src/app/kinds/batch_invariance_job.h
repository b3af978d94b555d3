// Runs a batch-invariance experiment on the runner: the one-step study's search items and
// flip maps, or the decode study's steps (each step's LM-head tiles as work items) for the
// variable plan and then the invariant plan; the measured cost of the invariant plan; the
// result tables with provenance. Used by the CLI and the page alike.
#pragma once

#include "app/io/provenance.h"
#include "app/kinds/batch_invariance_spec.h"
#include "app/kinds/batch_model_decode.h"
#include "app/kinds/experiment_result.h"
#include "app/run/experiment_runner.h"
#include "engine/core/work_limits.h"
#include "engine/experiments/batch_decode.h"
#include "engine/experiments/batch_flip.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace logitlab::app {

// The time one whole batch's LM head takes under each plan (measured, so it is shown and
// summarised but never written to the CSV, which must not depend on the machine's load).
struct BatchCostRow {
    qint64 batch = 0;
    QString variableKernel;
    double variableMs = 0.0;
    double invariantMs = 0.0;
};

struct BatchInvarianceOutcome {
    RunStatus status;
    BatchInvarianceSpec spec;
    // One step.
    std::vector<engine::FlipPoint> points;
    std::vector<engine::FlipBatchRow> flips;
    // Kernel pairs giving equal bits at the near tie, "float32: eigen-gemv = eigen-gemm".
    QStringList equalKernels;
    // Model decode.
    ModelDecodeOutcome model;
    // Decode.
    engine::BatchDecode::Rows decode;
    std::vector<BatchCostRow> costs;
    double costRatio = 0.0;        // invariant / variable time, weighted by how often each batch size occurs
    double variableSeconds = 0.0;  // the decode's own time under each plan
    double invariantSeconds = 0.0;
    QString plan;                                                    // the variable plan in words
    std::uint64_t draws = 0;                                         // LM-head evaluations (columns of logits computed)
    static constexpr const char* kWorkNoun = "LM-head evaluations";  // what `draws` counts, for the status bar
    double seconds = 0.0;
};

// What a run costs, from the spec alone: the LM head's multiply-adds (every run and kernel
// counted as if nothing were shared), the head and the decode's states in memory, rows.
// runBatchInvariance refuses a run over a limit before it builds the model.
engine::WorkEstimate batchInvarianceEstimate(const BatchInvarianceSpec& spec, int threads);

BatchInvarianceOutcome runBatchInvariance(const BatchInvarianceSpec& spec, const QString& baseDir,
                                          const QString& source, int threads, const WorkControl& control);

Provenance batchInvarianceProvenance(const BatchInvarianceSpec& spec, const QString& baseDir);

// details hold a std::shared_ptr<const BatchInvarianceOutcome> for the charts and the page.
ExperimentResult batchInvarianceResult(const BatchInvarianceSpec& spec, const QString& baseDir,
                                       BatchInvarianceOutcome outcome, int threads);
std::vector<ResultTable> batchInvarianceTables(const BatchInvarianceOutcome& outcome);
// One line: distinct completions, common prefix, the invariant plan's cost.
QString batchInvarianceSummary(const BatchInvarianceOutcome& outcome);

}  // namespace logitlab::app
