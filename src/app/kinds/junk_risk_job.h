// Runs a junk-risk experiment file on the runner: resolves the distribution, prepares the
// engine's experiment, runs its work items with per-worker tallies, merges them, and turns the
// rows into CSV with provenance. Used by the CLI and the GUI page alike.
#pragma once

#include "app/io/provenance.h"
#include "app/kinds/experiment_result.h"
#include "app/kinds/junk_risk_spec.h"
#include "app/kinds/result_table.h"
#include "app/run/experiment_runner.h"
#include "engine/experiments/junk_risk.h"
#include "engine/experiments/reply_junk_risk.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace logitlab::app {

struct JunkRiskOutcome {
    RunStatus status;
    std::vector<engine::JunkRiskRow> rows;  // empty unless status.finished()
    // Along a reply (spec.alongReply()): one row per (setting, step) instead of `rows`.
    std::vector<engine::ReplyJunkRiskRow> replyRows;
    std::uint64_t draws = 0;    // tokens actually sampled
    std::size_t junkCount = 0;  // how many tokens the junk definition makes junk
    QStringList junkNames;      // the first junk tokens by name ("#id" without names)
    double seconds = 0.0;
};

// How many junk tokens an outcome names; the rest are counted.
inline constexpr std::size_t kNamedJunkTokens = 12;

// Synchronous. Errors (an unreadable distribution file, junk ids outside the vocabulary) come
// back as Failed with a message starting with `source`.
JunkRiskOutcome runJunkRisk(const JunkRiskSpec& spec, const QString& baseDir, const QString& source, int threads,
                            const WorkControl& control);

// Every parameter, and the experiment file's canonical JSON. Not the thread count: the CSV must
// be byte-identical for any thread count.
Provenance junkRiskProvenance(const JunkRiskSpec& spec, const QString& baseDir);

// A finished (or stopped) run as the result every kind returns: the table, the provenance, a
// summary line; details hold a std::shared_ptr<const JunkRiskRun> for the chart.
struct JunkRiskRun {
    JunkRiskSpec spec;
    JunkRiskOutcome outcome;
};
ExperimentResult junkRiskResult(const JunkRiskSpec& spec, const QString& baseDir, JunkRiskOutcome outcome, int threads);

// The rows as the one result table the CSV and the page both read.
ResultTable junkRiskTable(std::vector<engine::JunkRiskRow> rows);
QString junkRiskCsv(const Provenance& provenance, const std::vector<engine::JunkRiskRow>& rows);
QString junkRiskCsv(const Provenance& provenance, const std::vector<engine::ReplyJunkRiskRow>& rows);

}  // namespace logitlab::app
