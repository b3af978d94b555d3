// Runs a loop experiment file: the main run of `steps` steps, and when the file has a branch, a
// copy rewound to the branch step that continues forced or reseeded; then the first step where
// the two differ. One thread (each step needs the one before); cancel is polled per step.
// Used by `logitlab-cli run` and the Loop page alike.
#pragma once

#include "experiment_result.h"
#include "experiment_runner.h"
#include "generation_loop.h"
#include "loop_spec.h"
#include "provenance.h"
#include "result_table.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

namespace logitlab::app {

// What a finished run holds: each run's steps, tokens by name and text.
struct LoopTrack {
    QString label;                     // "main", "branch"
    std::vector<engine::LoopStep> steps;
    QStringList tokens;                // every step's token by name
    QString text;                      // the generated text
};

struct LoopOutcome {
    RunStatus status;
    QString promptText;                // the prompt's tokens joined again
    std::vector<LoopTrack> tracks;     // main, then the branch
    std::optional<engine::Divergence> divergence;
    std::vector<std::string> vocabulary;  // the model's tokens, for the charts
    // The loops themselves, so that the page can step on from where the run ended.
    std::shared_ptr<const engine::GenerationLoop> mainLoop;
    std::shared_ptr<const engine::GenerationLoop> branchLoop;
    double seconds = 0.0;
    std::uint64_t draws = 0;           // steps taken (ExperimentPage's status line)
};

// The steps of a loop with its tokens named and its text (for a track of the page's own runs).
LoopTrack trackOf(const engine::GenerationLoop& loop, const QString& label);

// Synchronous; runs `spec.steps` steps (and the branch's), polling `control` between steps.
LoopOutcome runLoop(const LoopSpec& spec, const WorkControl& control);

Provenance loopProvenance(const LoopSpec& spec);

struct LoopRun {
    LoopSpec spec;
    LoopOutcome outcome;
};

ExperimentResult loopResult(const LoopSpec& spec, LoopOutcome outcome);

// One row per step of each track: the CSV and the page's table.
ResultTable loopStepsTable(const std::vector<LoopTrack>& tracks);
// One row per track: its text, and where it first differs from the main run.
ResultTable loopTextTable(const LoopOutcome& outcome);

}  // namespace logitlab::app
