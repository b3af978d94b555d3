// `logitlab-cli run` for junk-risk files: one CSV row per (setting, N) and the risk chart.
#include "experiment_outputs.h"

#include "command_line.h"
#include "junk_risk_chart.h"
#include "junk_risk_job.h"
#include "junk_risk_spec.h"

namespace logitlab::cli {

ExperimentOutputs runJunkRiskRequest(const ExperimentRequest& request)
{
    auto parsed = app::parseJunkRisk(request.root, request.source);
    if (!parsed)
        throw UsageError{QString::fromStdString(parsed.error())};
    const app::JunkRiskSpec& spec = parsed.value();

    ExperimentOutputs outputs;
    const app::JunkRiskOutcome outcome =
        app::runJunkRisk(spec, request.baseDir, request.source, request.threads, request.control);
    outputs.status = outcome.status;
    if (!outcome.status.finished())
        return outputs;
    outputs.name = spec.name;
    outputs.provenance = app::junkRiskProvenance(spec, request.baseDir);
    outputs.tables.append({QString(), app::junkRiskCsv(outputs.provenance, outcome.rows)});
    if (request.charts) {
        auto chart = std::make_unique<ui::JunkRiskChart>();
        chart->setRows(outcome.rows, spec.logLengthAxis);
        outputs.charts.append({QString(), chart->chart()});
        outputs.owners.push_back(std::move(chart));
    }
    outputs.summary = QStringLiteral("%1: %2 draws in %3 s on %4 threads")
                          .arg(spec.name)
                          .arg(outcome.draws)
                          .arg(outcome.seconds, 0, 'f', 2)
                          .arg(request.threads);
    return outputs;
}

}  // namespace logitlab::cli
