#include "experiment_charts.h"

#include "batch_invariance_charts.h"
#include "batch_invariance_job.h"
#include "compare_chart.h"
#include "draw_chart.h"
#include "explorer_run.h"
#include "junk_risk_chart.h"
#include "junk_risk_job.h"
#include "loop_charts.h"
#include "loop_job.h"
#include "logits_table_model.h"
#include "probability_chart.h"
#include "reply_junk_risk_chart.h"
#include "seed_sweep_charts.h"
#include "seed_sweep_job.h"
#include "sequence_sweep_charts.h"
#include "sequence_sweep_job.h"
#include "step_sweep_charts.h"
#include "summation_charts.h"
#include "summation_job.h"
#include "sweep_chart.h"
#include "token_display.h"

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
        out.charts.append({QString(), charts->risk()});
        out.charts.append({QStringLiteral("-q"), charts->q()});
        out.owners.push_back(std::move(charts));
        return;
    }
    auto chart = std::make_unique<JunkRiskChart>();
    chart->setRows(run.outcome.rows, run.spec.logLengthAxis);
    out.charts.append({QString(), chart->chart()});
    out.owners.push_back(std::move(chart));
}

void seedSweepCharts(const app::ExperimentResult& result, ExperimentCharts& out)
{
    // "source": "sequence" runs hold whole replies: their own charts.
    if (const auto* sequence = std::any_cast<std::shared_ptr<const app::SequenceSweepRun>>(&result.details)) {
        auto charts = std::make_unique<SequenceSweepCharts>();
        charts->setCensus((*sequence)->outcome.census, static_cast<std::size_t>((*sequence)->spec.steps));
        out.charts.append({QString(), charts->distinct()});
        out.charts.append({QStringLiteral("-first-difference"), charts->firstDifference()});
        out.owners.push_back(std::move(charts));
        return;
    }
    // A file's "steps": one row per step.
    if (const auto* steps = std::any_cast<std::shared_ptr<const app::StepSweepRun>>(&result.details)) {
        auto charts = std::make_unique<StepSweepCharts>();
        charts->setRows((*steps)->outcome.rows);
        out.charts.append({QString(), charts->pValues()});
        out.charts.append({QStringLiteral("-tokens"), charts->tokens()});
        out.owners.push_back(std::move(charts));
        return;
    }
    const auto& run = detailsOf<app::SeedSweepRun>(result);
    auto charts = std::make_unique<SeedSweepCharts>();
    charts->setSummary(run.outcome.summary, run.outcome.tokenNames, run.outcome.results.size(),
                       static_cast<std::uint64_t>(run.spec.draws));
    out.charts.append({QString(), charts->pValues()});
    out.charts.append({QStringLiteral("-spread"), charts->spread()});
    out.charts.append({QStringLiteral("-counts"), charts->counts()});
    out.owners.push_back(std::move(charts));
}

void summationCharts(const app::ExperimentResult& result, ExperimentCharts& out)
{
    const auto& run = detailsOf<app::SummationRun>(result);
    auto charts = std::make_unique<SummationCharts>();
    charts->setSummary(run.outcome.summary, run.spec.storage, run.spec.accumulator);
    out.charts.append({QString(), charts->errors()});
    out.charts.append({QStringLiteral("-histogram"), charts->histogram()});
    out.charts.append({QStringLiteral("-spread"), charts->spread()});
    out.owners.push_back(std::move(charts));
}

QString nameOf(const app::ExplorerRun& run, std::int32_t id)
{
    return shownTokenName(run.table->distribution.tokens[static_cast<std::size_t>(id)]);
}

void explorerCharts(const app::ExperimentResult& result, ExperimentCharts& out)
{
    const auto& run = detailsOf<app::ExplorerRun>(result);
    // The probability chart reads the same table model the page shows.
    auto model = std::make_unique<LogitsTableModel>();
    model->setTable(run.table, run.state.chain, *run.analysis);
    auto probabilities = std::make_unique<ProbabilityChart>(model.get());
    probabilities->rebuild();
    out.charts.append({QString(), probabilities->chart()});

    auto sweep = std::make_unique<SweepChart>();
    QStringList tracked;
    for (std::int32_t id : run.tracked)
        tracked << nameOf(run, id);
    sweep->setSweep(run.sweep, tracked, app::explorerSweepFilters(run.state.chain));
    sweep->setCurrentTemperature(run.state.chain.lesson.temperature);
    out.charts.append({QStringLiteral("-sweep"), sweep->chart()});

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
    out.charts.append({QStringLiteral("-draws"), draws->chart()});

    auto compare = std::make_unique<CompareChart>();
    QStringList compared;
    for (std::int32_t id : run.compared)
        compared << nameOf(run, id);
    compare->setResults(run.compare, run.compared, compared);
    out.charts.append({QStringLiteral("-compare"), compare->chart()});

    out.owners.push_back(std::move(probabilities));
    out.owners.push_back(std::move(model));
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
    out.charts.append({QString(), steps->chart()});
    out.owners.push_back(std::move(steps));
    // The next-token distribution at the last step of the main run.
    auto last = std::make_unique<LoopStepChart>();
    if (!run.outcome.tracks.empty() && !run.outcome.tracks.front().steps.empty())
        last->setStep(run.outcome.tracks.front().steps.back(), run.outcome.vocabulary);
    out.charts.append({QStringLiteral("-last-step"), last->chart()});
    out.owners.push_back(std::move(last));
}

void batchInvarianceCharts(const app::ExperimentResult& result, ExperimentCharts& out)
{
    const auto& outcome = detailsOf<app::BatchInvarianceOutcome>(result);
    auto charts = std::make_unique<BatchInvarianceCharts>();
    charts->setOutcome(outcome);
    const bool oneStep = outcome.spec.study == app::BatchInvarianceSpec::Study::OneStep;
    out.charts.append({QString(), charts->first()});
    out.charts.append({oneStep ? QStringLiteral("-gap-vs-error") : QStringLiteral("-states"), charts->second()});
    out.owners.push_back(std::move(charts));
}

using Builder = std::function<void(const app::ExperimentResult&, ExperimentCharts&)>;

// The one list of chart builders, by kind id.
const std::map<QString, Builder>& builders()
{
    static const std::map<QString, Builder> map{
        {QStringLiteral("junk-risk"), junkRiskCharts},
        {QStringLiteral("seed-sweep"), seedSweepCharts},
        {QStringLiteral("summation-order"), summationCharts},
        {QStringLiteral("explorer"), explorerCharts},
        {QStringLiteral("loop"), loopCharts},
        {QStringLiteral("batch-invariance"), batchInvarianceCharts},
    };
    return map;
}

}  // namespace

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
