// `logitlab-cli run` for seed-sweep files: the per-token table (<name>.csv), the per-seed table
// (<name>-seeds.csv), and three charts: p-values (<name>.png), spread and counts.
#include "experiment_outputs.h"

#include "command_line.h"
#include "seed_sweep_charts.h"
#include "seed_sweep_job.h"
#include "seed_sweep_spec.h"

namespace logitlab::cli {

ExperimentOutputs runSeedSweepRequest(const ExperimentRequest& request)
{
    auto parsed = app::parseSeedSweep(request.root, request.source);
    if (!parsed)
        throw UsageError{QString::fromStdString(parsed.error())};
    const app::SeedSweepSpec& spec = parsed.value();

    ExperimentOutputs outputs;
    const app::SeedSweepOutcome outcome =
        app::runSeedSweep(spec, request.baseDir, request.source, request.threads, request.control);
    outputs.status = outcome.status;
    if (!outcome.status.finished())
        return outputs;
    outputs.name = spec.name;
    outputs.provenance = app::seedSweepResultHeader(app::seedSweepProvenance(spec, request.baseDir), outcome);
    outputs.tables.append({QString(), app::seedSweepTokensCsv(outputs.provenance, outcome)});
    outputs.tables.append({QStringLiteral("-seeds"), app::seedSweepSeedsCsv(outputs.provenance, outcome)});
    if (request.charts) {
        auto charts = std::make_unique<ui::SeedSweepCharts>();
        charts->setSummary(outcome.summary, outcome.tokenNames, outcome.results.size(), static_cast<std::uint64_t>(spec.draws));
        outputs.charts.append({QString(), charts->pValues()});
        outputs.charts.append({QStringLiteral("-spread"), charts->spread()});
        outputs.charts.append({QStringLiteral("-counts"), charts->counts()});
        outputs.owners.push_back(std::move(charts));
    }
    const auto& ks = outcome.summary.chiSquareUniformity;
    // A chain that leaves one token has nothing to test: say so instead of a KS p-value of 1s.
    const QString test = outcome.summary.tested() ? QStringLiteral("KS p = %1").arg(ks.pValue, 0, 'g', 3)
                                                  : QString::fromStdString(outcome.summary.noTest);
    outputs.summary = QStringLiteral("%1: %2 seeds x %3 draws in %4 s on %5 threads; %6; first seed %7")
                          .arg(spec.name)
                          .arg(outcome.results.size())
                          .arg(spec.draws)
                          .arg(outcome.seconds, 0, 'f', 2)
                          .arg(request.threads)
                          .arg(test)
                          .arg(outcome.replayIdentical ? QStringLiteral("replayed bit for bit")
                                                       : QStringLiteral("did NOT replay"));
    return outputs;
}

}  // namespace logitlab::cli
