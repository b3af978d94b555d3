// What one experiment run hands back to `logitlab-cli run` for writing: its tables as CSV text
// and its charts, each with the file-name suffix it is written under, plus a one-line summary.
// Each experiment kind fills it in its own file (junk_risk_run.cpp, seed_sweep_run.cpp); the
// writing, and the clean-up when a write fails, is shared.
#pragma once

#include "experiment_runner.h"
#include "provenance.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>

#include <functional>
#include <memory>
#include <vector>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace logitlab::cli {

struct ExperimentOutputs {
    app::RunStatus status;
    QString name;                                // the file's "name": the output file stem
    QList<QPair<QString, QString>> tables;       // suffix ("" or "-seeds") -> CSV text
    QList<QPair<QString, QChart*>> charts;       // suffix -> chart (owned by `owners`)
    std::vector<std::unique_ptr<QObject>> owners;
    app::Provenance provenance{QString()};       // what the charts carry in their metadata
    QString summary;                             // one line for stderr
};

// Everything a kind needs: the file's JSON (overrides applied), where relative paths start, the
// file's name for messages, the thread count, whether charts are wanted, and run control.
struct ExperimentRequest {
    QJsonObject root;
    QString baseDir;
    QString source;
    int threads = 1;
    bool charts = false;
    app::WorkControl control;
};

// Throw UsageError for a bad file; return a Failed or Cancelled status for runs that stop.
ExperimentOutputs runJunkRiskRequest(const ExperimentRequest& request);
ExperimentOutputs runSeedSweepRequest(const ExperimentRequest& request);

}  // namespace logitlab::cli
