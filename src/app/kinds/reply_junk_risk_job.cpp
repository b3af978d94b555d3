#include "app/kinds/reply_junk_risk_job.h"

#include "app/kinds/junk_risk_columns.h"
#include "app/kinds/junk_risk_tallies.h"
#include "app/kinds/step_source.h"
#include "engine/core/work_limits.h"

#include <QObject>

#include <algorithm>
#include <cmath>

namespace logitlab::app {

engine::Result<engine::StepDistributions> junkRiskSteps(const JunkRiskSpec& spec, const QString& baseDir,
                                                        const std::function<bool()>& cancelled)
{
    if (spec.reply)
        return replySteps(*spec.reply, baseDir, cancelled);
    return fileSteps(spec.distribution, baseDir);
}

ReplyJunkRiskRun runReplyJunkRisk(const JunkRiskSpec& spec, const QString& baseDir, const QString& source, int threads,
                                  const WorkControl& control)
{
    ReplyJunkRiskRun run;
    const auto cancelled = [&control] { return control.isCancelled && control.isCancelled(); };
    const auto finish = [&](const std::string& message) {
        run.status = cancelled() ? RunStatus{RunStatus::State::Cancelled, QStringLiteral("cancelled")}
                                 : RunStatus{RunStatus::State::Failed,
                                             source + QStringLiteral(": ") + QString::fromStdString(message)};
        return run;
    };
    auto parameters = toReplyParameters(spec);
    if (!parameters)
        return finish(parameters.error());
    auto steps = junkRiskSteps(spec, baseDir, cancelled);
    if (!steps)
        return finish(steps.error());
    {
        engine::WorkEstimate e;
        const double settings = static_cast<double>(parameters->decoders.size());
        e.outputRows = static_cast<double>(steps->count) * settings;
        // The risk chart's lines over every step, its markers at most 1,000 a setting.
        e.chartPoints = std::min(static_cast<double>(steps->count), 1000.0) * settings;
        e.memoryBytes = e.outputRows * 256.0;
        if (auto problem = engine::checkEstimate("steps", e,
                                                 "use a shorter reply, a step range or fewer settings "
                                                 "(a point per step and setting)"))
            return finish(*problem);
    }
    // Reading a large dump's rows is the slow part: it gets the progress bar first.
    if (control.started)
        control.started(steps->count);
    auto prepared =
        engine::ReplyJunkRiskExperiment::prepare(std::move(parameters).value(), *steps, cancelled, control.progress);
    if (!prepared)
        return finish(prepared.error());
    const engine::ReplyJunkRiskExperiment& experiment = prepared.value();

    engine::JunkRiskCounts total;
    run.status = runJunkRiskItems(experiment, threads, control, total);
    if (!run.status.finished())
        return run;
    run.rows = experiment.rows(total);
    run.draws = total.draws;
    return run;
}

ResultTable replyJunkRiskTable(std::vector<engine::ReplyJunkRiskRow> rows)
{
    using Kind = ResultColumn::Kind;
    using Row = engine::ReplyJunkRiskRow;
    auto shared = std::make_shared<const std::vector<Row>>(std::move(rows));
    ResultTable table;
    table.title = QObject::tr("Risk along the reply");
    table.rows = shared->size();
    table.columns = junkRiskSettingColumns(shared);
    for (ResultColumn& column : std::vector<ResultColumn>{
             columnOf(
                 shared, QStringLiteral("step"), QObject::tr("step"), Kind::Integer,
                 [](const Row& r) { return qint64(r.step); }, QObject::tr("n: the reply's first n tokens (1-based).")),
             columnOf(
                 shared, QStringLiteral("source_step"), QObject::tr("source step"), Kind::Integer,
                 [](const Row& r) { return qint64(r.sourceStep); },
                 QObject::tr("The step's row in the file (from 0).")),
             columnOf(
                 shared, QStringLiteral("token"), QObject::tr("token"), Kind::Text,
                 [](const Row& r) { return QString::fromStdString(r.token); },
                 QObject::tr("The reply's token at this step (the built-in model's reply; empty for a file).")),
             columnOf(
                 shared, QStringLiteral("q_before"), QObject::tr("q before"), Kind::Real,
                 [](const Row& r) { return r.qBefore; },
                 QObject::tr("Junk mass at this step in the model's distribution (T = 1, no filter).")),
             columnOf(
                 shared, QStringLiteral("q_after"), QObject::tr("q_t"), Kind::Real,
                 [](const Row& r) { return r.qAfter; },
                 QObject::tr("Junk mass at this step after the setting's chain.")),
             columnOf(
                 shared, QStringLiteral("p_any_analytic"), QObject::tr("P(junk) analytic"), Kind::Real,
                 [](const Row& r) { return r.analytic; }, QObject::tr("1 - prod over the first n steps of (1 - q_t).")),
             columnOf(
                 shared, QStringLiteral("expected_junk"), QObject::tr("sum q_t"), Kind::Real,
                 [](const Row& r) { return r.expectedCount; }, QObject::tr("Expected junk tokens in the first n."))})
        table.columns.push_back(std::move(column));
    for (ResultColumn& column :
         junkRiskMonteCarloColumns(shared, QObject::tr("Replies with a junk token among their first n.")))
        table.columns.push_back(std::move(column));
    return table;
}

}  // namespace logitlab::app
