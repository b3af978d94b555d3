#include "junk_risk_job.h"

#include "background_run.h"
#include "csv_writer.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>
#include <mutex>

namespace logitlab::app {

namespace {

QString optionalNumber(double value)
{
    return std::isnan(value) ? QString() : CsvWriter::number(value);
}

}  // namespace

JunkRiskOutcome runJunkRisk(const JunkRiskSpec& spec, const QString& baseDir, const QString& source, int threads,
                            const WorkControl& control)
{
    QElapsedTimer timer;
    timer.start();
    JunkRiskOutcome outcome;
    const auto fail = [&](const std::string& message) {
        outcome.status = {RunStatus::State::Failed, source + QStringLiteral(": ") + QString::fromStdString(message)};
        return outcome;
    };
    auto parameters = toParameters(spec, baseDir);
    if (!parameters)
        return fail(parameters.error());
    const auto cancelled = [&control] { return control.isCancelled && control.isCancelled(); };
    auto prepared = engine::JunkRiskExperiment::prepare(std::move(parameters.value()), cancelled);
    if (cancelled()) {
        outcome.status = {RunStatus::State::Cancelled, QStringLiteral("cancelled")};
        return outcome;
    }
    if (!prepared)
        return fail(prepared.error());
    const engine::JunkRiskExperiment& experiment = prepared.value();

    // One accumulator per worker; the tallies are integers, so summing them in any order gives
    // the same bits, whatever the thread count or schedule.
    const int workers = std::max(1, threads);
    std::vector<engine::JunkRiskCounts> tallies(static_cast<std::size_t>(workers), experiment.emptyCounts());
    outcome.status = runWorkItems(
        experiment.itemCount(), workers,
        [&](int worker, std::size_t item) { experiment.runItem(item, tallies[static_cast<std::size_t>(worker)]); },
        control);
    if (!outcome.status.finished())
        return outcome;
    engine::JunkRiskCounts total = experiment.emptyCounts();
    for (const auto& t : tallies)
        total.add(t);
    outcome.rows = experiment.rows(total);
    outcome.draws = total.draws;
    outcome.seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    return outcome;
}

QFuture<JunkRiskOutcome> startJunkRisk(const JunkRiskSpec& spec, const QString& baseDir, const QString& source,
                                       int threads)
{
    return runInBackground<JunkRiskOutcome>([spec, baseDir, source, threads](const WorkControl& control) {
        return runJunkRisk(spec, baseDir, source, threads, control);
    });
}

Provenance junkRiskProvenance(const JunkRiskSpec& spec, const QString& baseDir)
{
    QStringList settings;
    for (const SettingSpec& s : spec.settings)
        settings << s.label + QStringLiteral(" = ") + QString::fromStdString(engine::describeSettings(s.sampler));
    QStringList lengths;
    for (auto n : spec.lengths.expand())
        lengths << QString::number(n);
    Provenance p(QStringLiteral("junk-risk"));
    p.add(QStringLiteral("name"), spec.name)
        .add(QStringLiteral("distribution"), describeDistribution(spec.distribution, baseDir))
        .add(QStringLiteral("junk"), QString::fromStdString(engine::describeJunk(spec.junk)))
        .add(QStringLiteral("settings"), settings.join(QStringLiteral("; ")))
        .add(QStringLiteral("lengths"), lengths.join(QLatin1Char(',')))
        .add(QStringLiteral("replies"), QString::number(spec.replies))
        .add(QStringLiteral("rng"), spec.rng)
        .add(QStringLiteral("seed"), QString::number(spec.seed))
        .add(QStringLiteral("draws-per-work-item"), QString::number(engine::JunkRiskExperiment::kDrawsPerItem))
        .add(QStringLiteral("experiment-file"),
             QString::fromUtf8(QJsonDocument(toJson(spec)).toJson(QJsonDocument::Compact)));
    return p;
}

QStringList junkRiskColumns()
{
    return {QStringLiteral("setting"),       QStringLiteral("chain"),          QStringLiteral("n"),
            QStringLiteral("q_before"),      QStringLiteral("q_after"),        QStringLiteral("p_any_analytic"),
            QStringLiteral("expected_junk"), QStringLiteral("replies"),        QStringLiteral("replies_with_junk"),
            QStringLiteral("p_any_mc"),      QStringLiteral("p_any_mc_low"),   QStringLiteral("p_any_mc_high"),
            QStringLiteral("mean_junk_mc")};
}

QString junkRiskCsv(const Provenance& provenance, const std::vector<engine::JunkRiskRow>& rows)
{
    CsvWriter csv(provenance, junkRiskColumns());
    for (const auto& r : rows)
        csv.addRow({QString::fromStdString(r.setting), QString::fromStdString(r.chain), QString::number(r.length),
                    CsvWriter::number(r.qBefore), CsvWriter::number(r.qAfter), CsvWriter::number(r.analytic),
                    CsvWriter::number(r.expectedCount), QString::number(r.replies), QString::number(r.repliesWithJunk),
                    optionalNumber(r.monteCarlo), optionalNumber(r.replies ? r.low : NAN),
                    optionalNumber(r.replies ? r.high : NAN), optionalNumber(r.meanCount)});
    return csv.text();
}

}  // namespace logitlab::app
