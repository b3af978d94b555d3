// Runs a summation-order experiment on the runner: prepares the term sets (drawing, storage
// rounding, the exact sums), runs every method and shuffle as a work item (each writes its own
// slot, so the results are the same bits for any thread count), and turns the summary into
// the result tables the CSV and the page share: methods, shuffles, histogram, spread, lesson.
#pragma once

#include "app/io/provenance.h"
#include "app/kinds/experiment_result.h"
#include "app/kinds/result_table.h"
#include "app/kinds/summation_spec.h"
#include "app/run/experiment_runner.h"
#include "engine/core/work_limits.h"
#include "engine/experiments/summation_lesson.h"
#include "engine/experiments/summation_order.h"

#include <QString>

#include <vector>

namespace logitlab::app {

struct SummationOutcome {
    RunStatus status;
    engine::SummationSummary summary;                 // filled when status.finished()
    std::vector<engine::LessonSum> lesson;            // the lesson's two examples, both orders each
    std::uint64_t draws = 0;                          // orders summed (methods and shuffles)
    static constexpr const char* kWorkNoun = "sums";  // what `draws` counts, for the status bar
    double seconds = 0.0;
};

// What a run costs: terms x (methods + shuffles) terms summed, plus the spread's; the terms and
// each worker's shuffle buffer in memory; a row per sum. runSummation refuses a run over a limit.
engine::WorkEstimate summationEstimate(const engine::SummationParameters& p, int threads);

// Synchronous. Errors (an unreadable terms file, a term that overflows the storage format)
// come back as Failed with a message starting with `source`.
SummationOutcome runSummation(const SummationSpec& spec, const QString& baseDir, const QString& source, int threads,
                              const WorkControl& control);

// Every parameter and the file's canonical JSON; not the runner's thread count.
Provenance summationProvenance(const SummationSpec& spec, const QString& baseDir);

// What the charts read.
struct SummationRun {
    SummationSpec spec;
    SummationOutcome outcome;
};
ExperimentResult summationResult(const SummationSpec& spec, const QString& baseDir, SummationOutcome outcome,
                                 int threads);

// The tables, by suffix: "" methods, "-shuffles", "-histogram", "-spread", "-lesson"; those
// without rows (no shuffles, no spread) are left out.
std::vector<ResultTable> summationTables(const SummationOutcome& outcome);

}  // namespace logitlab::app
