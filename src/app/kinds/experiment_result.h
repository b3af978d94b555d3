// What one run of any experiment kind hands back, to the CLI and to the pages alike: how it
// ended, the name its files are written under, its provenance, one summary line, its result
// tables (the same schema for CSV and screen) and the kind's own typed outcome, which only that
// kind's charts read (`details`, e.g. a JunkRiskOutcome).
#pragma once

#include "app/io/provenance.h"
#include "app/kinds/result_table.h"
#include "app/run/experiment_runner.h"

#include <QString>

#include <any>
#include <vector>

namespace logitlab::app {

struct ExperimentResult {
    RunStatus status;
    // Failed because the file or a value in it is wrong (the CLI exits 2 and writes nothing),
    // rather than because the run itself went wrong.
    bool badInput = false;
    QString kind;  // the kind's id: "junk-risk", "seed-sweep", "explorer"
    QString name;  // the output file stem
    Provenance provenance{QString()};
    QString summary;  // one line
    std::vector<ResultTable> tables;
    std::any details;

    const ResultTable* table(const QString& suffix) const;
};

// The start of every kind's result: which kind, the output name and how the run ended. A kind
// fills in the rest only when the run finished.
ExperimentResult resultOf(QString kind, QString name, RunStatus status);

}  // namespace logitlab::app
