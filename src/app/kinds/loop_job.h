// Runs a loop experiment file: the main run of `steps` steps, and when the file has a branch, a
// copy rewound to the branch step that continues forced or reseeded; then the first step where
// the two differ. One thread (each step needs the one before); cancel is polled per step.
// Used by `logitlab-cli run` and the Loop page alike.
#pragma once

#include "app/io/provenance.h"
#include "app/kinds/experiment_result.h"
#include "app/kinds/loop_spec.h"
#include "app/kinds/result_table.h"
#include "app/run/experiment_runner.h"
#include "engine/experiments/generation_loop.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

namespace logitlab::app {

// What a finished run holds: each run's steps, tokens by name and text.
struct LoopTrack {
    QString label;  // "main", "branch"
    std::vector<engine::LoopStep> steps;
    QStringList tokens;        // every step's token by name
    QStringList actualTokens;  // a replay: the model's token (or the argmax) by name, per step
    QString text;              // the generated text
};

struct LoopOutcome {
    RunStatus status;
    QString promptText;             // the prompt's tokens joined again
    std::vector<LoopTrack> tracks;  // main, then the branch
    std::optional<engine::Divergence> divergence;
    std::vector<std::string> vocabulary;  // the model's tokens, for the charts
    // The loops themselves, so that the page can step on from where the run ended.
    std::shared_ptr<const engine::GenerationLoop> mainLoop;
    std::shared_ptr<const engine::GenerationLoop> branchLoop;
    std::shared_ptr<const engine::StepLogitsSource> source;  // the replayed file, open (null for the built-in model)
    double seconds = 0.0;
    std::uint64_t draws = 0;  // steps taken (ExperimentPage's status line)
};

// The steps of a loop with its tokens named and its text (for a track of the page's own runs).
LoopTrack trackOf(const engine::GenerationLoop& loop, const QString& label);

// Synchronous; runs `spec.steps` steps (and the branch's), polling `control` between steps. A
// replay opens its file first (relative to `baseDir`), or uses `source` when the caller has it open.
LoopOutcome runLoop(const LoopSpec& spec, const WorkControl& control);
LoopOutcome runLoop(const LoopSpec& spec, const QString& baseDir, const WorkControl& control,
                    std::shared_ptr<const engine::StepLogitsSource> source = nullptr);

// A replay names its file with its SHA-256 (and the vocabulary file's).
Provenance loopProvenance(const LoopSpec& spec, const QString& baseDir = {});

struct LoopRun {
    LoopSpec spec;
    LoopOutcome outcome;
};

ExperimentResult loopResult(const LoopSpec& spec, LoopOutcome outcome, const QString& baseDir = {});

// "agreement 17 of 20 steps (85.0%); the chain cut the model's token at 2 steps (4, 9)", or
// "the file has no sequences: the argmax stands in for the model's token" for a replay without them.
QString replaySummary(const std::vector<engine::LoopStep>& steps);

// One row per step of each track: the CSV and the page's table.
ResultTable loopStepsTable(const std::vector<LoopTrack>& tracks);
// A row of that table: the run's label, the step, and its tokens by name.
struct LoopStepRow {
    QString run;
    engine::LoopStep step;
    QString token;
    QString actual;  // a replay: the model's token by name; else empty
};
LoopStepRow loopStepRow(const engine::GenerationLoop& loop, std::size_t step, const QString& run);
// The same table over `rows`, read when a cell is asked for, so a caller that grows or shrinks
// the vector in place (the Loop page while it steps) shows it without building the table again.
// `replay` adds the model's-token columns (a teacher-forced run).
ResultTable loopStepsTable(std::shared_ptr<const std::vector<LoopStepRow>> rows, bool replay);
// One row per track: its text, and where it first differs from the main run.
ResultTable loopTextTable(const LoopOutcome& outcome);

}  // namespace logitlab::app
