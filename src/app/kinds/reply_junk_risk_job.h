// Junk risk along a reply, run on the runner: the reply's steps (an imported file's rows or the
// built-in model's reply, step_source.h) are read once to compute q_t per setting, then the
// Monte Carlo replies run as work items with per-worker integer tallies. junk_risk_job.h calls
// this for a spec that walks a reply; its outcome and result types are shared.
#pragma once

#include "app/kinds/junk_risk_spec.h"
#include "app/kinds/result_table.h"
#include "app/run/experiment_runner.h"
#include "engine/experiments/reply_junk_risk.h"
#include "engine/experiments/step_distributions.h"

#include <QString>

#include <vector>

namespace logitlab::app {

// The steps the spec walks: the built-in model's reply, or the file distribution's steps.
engine::Result<engine::StepDistributions> junkRiskSteps(const JunkRiskSpec& spec, const QString& baseDir,
                                                        const std::function<bool()>& cancelled);

struct ReplyJunkRiskRun {
    RunStatus status;
    std::vector<engine::ReplyJunkRiskRow> rows;  // settings in order, steps ascending
    std::uint64_t draws = 0;
};

// Synchronous. Progress: first the steps read (one per step), then the Monte Carlo items.
// Errors are Failed with a message starting with `source`.
ReplyJunkRiskRun runReplyJunkRisk(const JunkRiskSpec& spec, const QString& baseDir, const QString& source, int threads,
                                  const WorkControl& control);

// The rows as the result table the CSV and the page read: per step, q_t and the cumulative risk.
ResultTable replyJunkRiskTable(std::vector<engine::ReplyJunkRiskRow> rows);

}  // namespace logitlab::app
