#include "app/kinds/junk_risk_job.h"

#include "app/io/gguf_model_file.h"
#include "app/kinds/junk_risk_columns.h"
#include "app/kinds/junk_risk_tallies.h"
#include "app/kinds/reply_junk_risk_job.h"
#include "app/text/counted.h"
#include "engine/core/work_limits.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QObject>

#include <algorithm>
#include <cmath>
#include <mutex>

namespace logitlab::app {

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
    if (spec.alongReply()) {
        ReplyJunkRiskRun run = runReplyJunkRisk(spec, baseDir, source, threads, control);
        outcome.status = run.status;
        outcome.replyRows = std::move(run.rows);
        outcome.draws = run.draws;
        outcome.seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
        return outcome;
    }
    auto parameters = toParameters(spec, baseDir);
    if (!parameters)
        return fail(parameters.error());
    // Work (replies x lengths x settings draws) is the engine's check; rows and chart points here.
    {
        engine::WorkEstimate e;
        const double settings = static_cast<double>(parameters->decoders.size());
        e.outputRows = static_cast<double>(parameters->lengths.size()) * settings;
        // The chart draws at most 1,000 Monte Carlo points a setting (junk_risk_chart.cpp).
        e.chartPoints = std::min(static_cast<double>(parameters->lengths.size()), 1000.0) * settings;
        e.memoryBytes = e.outputRows * 256.0;
        if (auto problem = engine::checkEstimate(
                "lengths", e, "ask for fewer lengths or fewer settings (a point per length and setting)"))
            return fail(*problem);
    }
    const auto cancelled = [&control] { return control.isCancelled && control.isCancelled(); };
    auto prepared = engine::JunkRiskExperiment::prepare(std::move(parameters.value()), cancelled);
    if (cancelled()) {
        outcome.status = {RunStatus::State::Cancelled, QStringLiteral("cancelled")};
        return outcome;
    }
    if (!prepared)
        return fail(prepared.error());
    const engine::JunkRiskExperiment& experiment = prepared.value();

    engine::JunkRiskCounts total;
    outcome.status = runJunkRiskItems(experiment, threads, control, total);
    if (!outcome.status.finished())
        return outcome;
    outcome.rows = experiment.rows(total);
    const auto& ids = experiment.junkIds();
    const auto& names = experiment.parameters().tokens;
    outcome.junkCount = ids.size();
    for (std::size_t i = 0; i < std::min(ids.size(), kNamedJunkTokens); ++i) {
        const auto id = static_cast<std::size_t>(ids[i]);
        outcome.junkNames << (id < names.size() ? QString::fromStdString(names[id]) : QStringLiteral("#%1").arg(id));
    }
    outcome.draws = total.draws;
    outcome.seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    return outcome;
}

Provenance junkRiskProvenance(const JunkRiskSpec& spec, const QString& baseDir)
{
    QStringList settings;
    QStringList arithmetic;
    for (const SettingSpec& s : spec.settings) {
        settings << s.label + QStringLiteral(" = ") + s.describe();
        arithmetic << s.label + QStringLiteral(" = ") + s.arithmeticUsed();
    }
    QStringList lengths;
    for (auto n : spec.lengths.expand())
        lengths << QString::number(n);
    Provenance p(junkRiskKind().id());
    p.add(QStringLiteral("name"), spec.name);
    // Along a reply the rows are the reply's steps; a file keeps its SHA-256 in the distribution.
    if (spec.reply) {
        p.add(QStringLiteral("reply"), describeReply(*spec.reply));
        if (!spec.reply->modelFile.isEmpty())
            p.add(QStringLiteral("model-file"), ggufFileProvenance(spec.reply->modelFile, baseDir));
    } else
        p.add(QStringLiteral("distribution"), describeDistribution(spec.distribution, baseDir));
    p.add(QStringLiteral("junk"), QString::fromStdString(engine::describeJunk(spec.junk)))
        .add(QStringLiteral("settings"), settings.join(QStringLiteral("; ")))
        .add(QStringLiteral("arithmetic"), arithmetic.join(QStringLiteral("; ")));
    if (spec.alongReply())
        p.add(QStringLiteral("lengths"), QStringLiteral("every step of the reply"));
    else
        p.add(QStringLiteral("lengths"), lengths.join(QLatin1Char(',')));
    p.add(QStringLiteral("replies"), QString::number(spec.replies))
        .add(QStringLiteral("rng"), spec.rng)
        .add(QStringLiteral("seed"), QString::number(spec.seed))
        .add(QStringLiteral("draws-per-work-item"), QString::number(engine::JunkRiskExperiment::kDrawsPerItem))
        .add(QStringLiteral("experiment-file"),
             QString::fromUtf8(QJsonDocument(toJson(spec)).toJson(QJsonDocument::Compact)));
    return p;
}

ResultTable junkRiskTable(std::vector<engine::JunkRiskRow> rows)
{
    using Kind = ResultColumn::Kind;
    using Row = engine::JunkRiskRow;
    auto shared = std::make_shared<const std::vector<Row>>(std::move(rows));
    ResultTable table;
    table.title = QObject::tr("Risk by length");
    table.rows = shared->size();
    table.columns = junkRiskSettingColumns(shared);
    for (ResultColumn& column : std::vector<ResultColumn>{
             columnOf(
                 shared, QStringLiteral("n"), QObject::tr("N"), Kind::Integer,
                 [](const Row& r) { return qint64(r.length); }, QObject::tr("Reply length in tokens.")),
             columnOf(
                 shared, QStringLiteral("q_before"), QObject::tr("q before"), Kind::Real,
                 [](const Row& r) { return r.qBefore; },
                 QObject::tr("Junk mass per step in the model's distribution (T = 1, no filter).")),
             columnOf(
                 shared, QStringLiteral("q_after"), QObject::tr("q after"), Kind::Real,
                 [](const Row& r) { return r.qAfter; }, QObject::tr("Junk mass per step after the setting's chain.")),
             columnOf(
                 shared, QStringLiteral("p_any_analytic"), QObject::tr("P(junk) analytic"), Kind::Real,
                 [](const Row& r) { return r.analytic; }, QObject::tr("1 - (1 - q after)^N.")),
             columnOf(
                 shared, QStringLiteral("expected_junk"), QObject::tr("N·q"), Kind::Real,
                 [](const Row& r) { return r.expectedCount; }, QObject::tr("Expected junk tokens per reply."))})
        table.columns.push_back(std::move(column));
    for (ResultColumn& column :
         junkRiskMonteCarloColumns(shared, QObject::tr("Replies holding at least one junk token.")))
        table.columns.push_back(std::move(column));
    table.columns.push_back(columnOf(
        shared, QStringLiteral("mean_junk_mc"), QObject::tr("junk per reply"), Kind::Real,
        [](const Row& r) { return r.replies ? r.meanCount : NAN; }, QObject::tr("Junk tokens per sampled reply.")));
    return table;
}

ExperimentResult junkRiskResult(const JunkRiskSpec& spec, const QString& baseDir, JunkRiskOutcome outcome, int threads)
{
    ExperimentResult result = resultOf(junkRiskKind().id(), spec.name, outcome.status);
    if (!result.status.finished())
        return result;
    result.provenance = junkRiskProvenance(spec, baseDir);
    result.tables = {spec.alongReply() ? replyJunkRiskTable(outcome.replyRows) : junkRiskTable(outcome.rows)};
    result.summary = QObject::tr("%1: %2 in %3 s on %4")
                         .arg(spec.name)
                         .arg(counted(qint64(outcome.draws), "draw", "draws"))
                         .arg(outcome.seconds, 0, 'f', 2)
                         .arg(counted(threads, "thread", "threads"));
    result.details = std::make_shared<const JunkRiskRun>(JunkRiskRun{spec, std::move(outcome)});
    return result;
}

QString junkRiskCsv(const Provenance& provenance, const std::vector<engine::JunkRiskRow>& rows)
{
    return resultTableCsv(provenance, junkRiskTable(rows));
}

QString junkRiskCsv(const Provenance& provenance, const std::vector<engine::ReplyJunkRiskRow>& rows)
{
    return resultTableCsv(provenance, replyJunkRiskTable(rows));
}

}  // namespace logitlab::app
