#include "charts/experiment_charts.h"

#include "app/kinds/batch_invariance_job.h"
#include "app/kinds/batch_invariance_spec.h"
#include "app/kinds/explorer_run.h"
#include "app/kinds/explorer_state.h"
#include "app/kinds/junk_risk_job.h"
#include "app/kinds/junk_risk_spec.h"
#include "app/kinds/loop_job.h"
#include "app/kinds/loop_spec.h"
#include "app/kinds/seed_sweep_job.h"
#include "app/kinds/seed_sweep_spec.h"
#include "app/kinds/sequence_sweep_job.h"
#include "app/kinds/summation_job.h"
#include "app/kinds/summation_spec.h"
#include "charts/batch_invariance_charts.h"
#include "charts/compare_chart.h"
#include "charts/draw_chart.h"
#include "charts/explorer_snapshot.h"
#include "charts/junk_risk_chart.h"
#include "charts/loop_charts.h"
#include "charts/probability_chart.h"
#include "charts/reply_junk_risk_chart.h"
#include "charts/seed_sweep_charts.h"
#include "charts/sequence_sweep_charts.h"
#include "charts/step_sweep_charts.h"
#include "charts/summation_charts.h"
#include "charts/sweep_chart.h"
#include "charts/token_display.h"

#include <QStringList>

#include <functional>
#include <map>

namespace logitlab::ui {

namespace {

template <class Details>
const Details& detailsOf(const app::ExperimentResult& result)
{
    return *std::any_cast<std::shared_ptr<const Details>>(result.details);
}

void junkRiskCharts(const app::ExperimentResult& result, ExperimentCharts& out)
{
    const auto& run = detailsOf<app::JunkRiskRun>(result);
    if (run.spec.alongReply()) {
        auto charts = std::make_unique<ReplyJunkRiskChart>();
        charts->setRows(run.outcome.replyRows);
        out.add(QString(), QObject::tr("Risk"), charts->risk());
        out.add(QStringLiteral("-q"), QObject::tr("q per step"), charts->q());
        out.owners.push_back(std::move(charts));
        return;
    }
    auto chart = std::make_unique<JunkRiskChart>();
    chart->setRows(run.outcome.rows, run.spec.logLengthAxis);
    out.add(QString(), QObject::tr("Risk"), chart->chart());
    out.owners.push_back(std::move(chart));
}

void seedSweepCharts(const app::ExperimentResult& result, ExperimentCharts& out)
{
    // "source": "sequence" runs hold whole replies: their own charts.
    if (const auto* sequence = std::any_cast<std::shared_ptr<const app::SequenceSweepRun>>(&result.details)) {
        auto charts = std::make_unique<SequenceSweepCharts>();
        charts->setCensus((*sequence)->outcome.census, static_cast<std::size_t>((*sequence)->spec.steps));
        out.add(QString(), QObject::tr("Distinct replies"), charts->distinct());
        out.add(QStringLiteral("-first-difference"), QObject::tr("First difference"), charts->firstDifference());
        out.owners.push_back(std::move(charts));
        return;
    }
    // A file's "steps": one row per step.
    if (const auto* steps = std::any_cast<std::shared_ptr<const app::StepSweepRun>>(&result.details)) {
        auto charts = std::make_unique<StepSweepCharts>();
        charts->setRows((*steps)->outcome.rows);
        out.add(QString(), QObject::tr("p-values"), charts->pValues());
        out.add(QStringLiteral("-tokens"), QObject::tr("Tokens"), charts->tokens());
        out.owners.push_back(std::move(charts));
        return;
    }
    const auto& run = detailsOf<app::SeedSweepRun>(result);
    auto charts = std::make_unique<SeedSweepCharts>();
    QStringList shownNames;  // cut for the axes (token_display.h); the tables keep whole names
    for (const QString& name : run.outcome.tokenNames)
        shownNames << shownTokenName(name);
    charts->setSummary(run.outcome.summary, shownNames, run.outcome.results.size(),
                       static_cast<std::uint64_t>(run.spec.draws));
    out.add(QString(), QObject::tr("p-values"), charts->pValues());
    out.add(QStringLiteral("-spread"), QObject::tr("Spread"), charts->spread());
    out.add(QStringLiteral("-counts"), QObject::tr("Counts"), charts->counts());
    out.owners.push_back(std::move(charts));
}

void summationCharts(const app::ExperimentResult& result, ExperimentCharts& out)
{
    const auto& run = detailsOf<app::SummationRun>(result);
    auto charts = std::make_unique<SummationCharts>();
    charts->setSummary(run.outcome.summary, run.spec.storage, run.spec.accumulator);
    out.add(QString(), QObject::tr("Errors"), charts->errors());
    out.add(QStringLiteral("-histogram"), QObject::tr("Random orders"), charts->histogram());
    // Without a spread in the run that chart is only a hint in its title, which an exported
    // figure leaves off: an empty file. The form says how to ask for one.
    if (!run.outcome.summary.spread.empty())
        out.add(QStringLiteral("-spread"), QObject::tr("Spread vs N"), charts->spread());
    out.owners.push_back(std::move(charts));
}

QString nameOf(const app::ExplorerRun& run, std::int32_t id)
{
    return shownTokenName(run.table->distribution.tokens[static_cast<std::size_t>(id)]);
}

void explorerCharts(const app::ExperimentResult& result, ExperimentCharts& out)
{
    const auto& run = detailsOf<app::ExplorerRun>(result);
    // The probability chart draws the snapshot the page's table model holds.
    auto probabilities =
        std::make_unique<ProbabilityChart>(ExplorerSnapshot(run.table, run.state.chain, *run.analysis));
    probabilities->setTopBars(run.state.bars);
    out.add(QString(), QObject::tr("Probabilities"), probabilities->chart());

    auto sweep = std::make_unique<SweepChart>();
    QStringList tracked;
    for (std::int32_t id : run.tracked)
        tracked << nameOf(run, id);
    sweep->setSweep(run.sweep, tracked, app::explorerSweepFilters(run.state.chain));
    sweep->setCurrentTemperature(run.state.chain.lesson.temperature);
    out.add(QStringLiteral("-sweep"), QObject::tr("Temperature sweep"), sweep->chart());

    auto draws = std::make_unique<DrawChart>();
    if (run.draws.expected.empty()) {
        draws->clear(QObject::tr("No draws: the chain leaves nothing to draw."));
    } else {
        QStringList names;
        for (const auto& c : run.draws.expected) {
            if (names.size() > DrawChart::kTopBars)
                break;
            names << nameOf(run, c.id);
        }
        const QString caption = QObject::tr("%L1 draws, %2 seed %3, %4 draw rule")
                                    .arg(run.draws.counts.draws)
                                    .arg(run.state.rng)
                                    .arg(run.state.seed)
                                    .arg(QString::fromStdString(engine::semanticsName(run.state.chain.semantics)));
        draws->setResult(run.draws.expected, run.draws.counts, names, caption, run.drawsTest);
    }
    out.add(QStringLiteral("-draws"), QObject::tr("Draws"), draws->chart());

    auto compare = std::make_unique<CompareChart>();
    QStringList compared;
    for (std::int32_t id : run.compared)
        compared << nameOf(run, id);
    compare->setResults(run.compare, run.compared, compared);
    out.add(QStringLiteral("-compare"), QObject::tr("Presets"), compare->chart());

    out.owners.push_back(std::move(probabilities));
    out.owners.push_back(std::move(sweep));
    out.owners.push_back(std::move(draws));
    out.owners.push_back(std::move(compare));
}

void loopCharts(const app::ExperimentResult& result, ExperimentCharts& out)
{
    const auto& run = detailsOf<app::LoopRun>(result);
    auto steps = std::make_unique<LoopStepsChart>();
    std::vector<LoopStepsChart::Track> tracks;
    for (const auto& track : run.outcome.tracks)
        tracks.push_back({track.label, &track.steps});
    std::optional<std::size_t> divergence;
    if (run.outcome.divergence)
        divergence = run.outcome.divergence->step;
    steps->setTracks(tracks, divergence);
    out.add(QString(), QObject::tr("Chosen tokens"), steps->chart());
    out.owners.push_back(std::move(steps));
    // The next-token distribution at the last step of the main run.
    auto last = std::make_unique<LoopStepChart>();
    if (!run.outcome.tracks.empty() && !run.outcome.tracks.front().steps.empty())
        last->setStep(run.outcome.tracks.front().steps.back(), run.outcome.vocabulary);
    out.add(QStringLiteral("-last-step"), QObject::tr("Last step"), last->chart());
    out.owners.push_back(std::move(last));
}

void batchInvarianceCharts(const app::ExperimentResult& result, ExperimentCharts& out)
{
    const auto& outcome = detailsOf<app::BatchInvarianceOutcome>(result);
    auto charts = std::make_unique<BatchInvarianceCharts>();
    charts->setOutcome(outcome);
    using Study = app::BatchInvarianceSpec::Study;
    switch (outcome.spec.study) {
    case Study::OneStep:
        out.add(QString(), QObject::tr("Flip map"), charts->first());
        out.add(QStringLiteral("-gap-vs-error"), QObject::tr("Gap vs error"), charts->second());
        break;
    case Study::Decode:
        out.add(QString(), QObject::tr("Divergence positions"), charts->first());
        out.add(QStringLiteral("-states"), QObject::tr("Distinct states"), charts->second());
        break;
    case Study::ModelDecode:
        out.add(QString(), QObject::tr("Shared tokens"), charts->first());
        out.add(QStringLiteral("-logit-change"), QObject::tr("Logit change"), charts->second());
        break;
    }
    out.owners.push_back(std::move(charts));
}

using Builder = std::function<void(const app::ExperimentResult&, ExperimentCharts&)>;

// The one list of chart builders, by kind id.
const std::map<QString, Builder>& builders()
{
    static const std::map<QString, Builder> map{
        {app::junkRiskKind().id(), junkRiskCharts},   {app::seedSweepKind().id(), seedSweepCharts},
        {app::summationKind().id(), summationCharts}, {app::explorerKind().id(), explorerCharts},
        {app::loopKind().id(), loopCharts},           {app::batchInvarianceKind().id(), batchInvarianceCharts},
    };
    return map;
}

}  // namespace

void ExperimentCharts::add(const QString& suffix, const QString& label, QChart* chart)
{
    charts.append({suffix, chart});
    labels.append(label);
}

ExperimentCharts experimentCharts(const app::ExperimentResult& result)
{
    ExperimentCharts out;
    if (!result.status.finished() || !result.details.has_value())
        return out;
    if (const auto found = builders().find(result.kind); found != builders().end())
        found->second(result, out);
    return out;
}

}  // namespace logitlab::ui
