#include "ui/pages/explorer_views.h"

#include "app/kinds/explorer_run.h"
#include "charts/compare_chart.h"
#include "charts/draw_chart.h"
#include "charts/sweep_chart.h"
#include "engine/core/number_format.h"
#include "engine/sampler/chain_settings.h"
#include "engine/sampler/semantics.h"
#include "engine/stats/pooled_fit_test.h"
#include "engine/stats/statistics.h"
#include "ui/models/logits_table_model.h"
#include "ui/pages/draw_panel.h"

namespace logitlab::ui {

ExplorerViews::ExplorerViews(const LogitsTableModel* model, SweepChart* sweep, CompareChart* compare, DrawChart* draws,
                             const DrawPanel* drawSettings, QObject* parent)
    : QObject(parent), m_model(model), m_sweep(sweep), m_compare(compare), m_draws(draws), m_drawSettings(drawSettings),
      m_sweepRuns(
          new app::RunController<std::vector<engine::SweepPoint>>(app::RunControllerBase::Mode::LatestOnly, this)),
      m_compareRuns(new app::RunController<CompareResults>(app::RunControllerBase::Mode::LatestOnly, this)),
      m_drawRuns(new app::RunController<DrawOutcome>(app::RunControllerBase::Mode::Supersede, this))
{
}

void ExplorerViews::resultsChanged(bool compareShown, bool drawsShown)
{
    m_sweep->setCurrentTemperature(m_model->settings().temperature);
    // The sweep varies T itself: only the other parts of the chain make it stale.
    engine::ExplorerChain atOne = m_model->chain();
    atOne.lesson.temperature = 1.0;
    if (m_sweepDirty || atOne != m_sweptChain)
        startSweep();
    // Compare runs four chains: only when it is on screen.
    m_compareDirty = true;
    if (compareShown)
        startCompare();
    drawsStale(drawsShown);
}

void ExplorerViews::drawsStale(bool drawsShown)
{
    // Draws belong to the settings they were made with (the chart's title names them): a chart
    // that says "seed 42" beside a seed box reading 43 would be a false statement.
    m_lastDraws = {};
    if (drawsShown)
        startDraws();
    else
        m_draws->clear(tr("Settings changed: press Draw to sample again."));
}

void ExplorerViews::compareShown()
{
    if (m_compareDirty)
        startCompare();
}

void ExplorerViews::drawsShown()
{
    if (m_lastDraws.draws == 0 && !drawsRunning())
        startDraws();
}

void ExplorerViews::cancel()
{
    m_sweepRuns->cancel();
    if (m_drawRuns->cancel())
        emit statusMessage(tr("Draws cancelled: the chart keeps the last finished draws."));
}

std::pair<std::vector<std::int32_t>, QStringList> ExplorerViews::topTokens(int count) const
{
    std::pair<std::vector<std::int32_t>, QStringList> top;
    const auto& order = m_model->idsByLogit();
    for (std::size_t i = 0; i < order.size() && i < static_cast<std::size_t>(count); ++i) {
        top.first.push_back(order[i]);
        top.second << m_model->shownName(order[i]);
    }
    return top;
}

void ExplorerViews::startSweep()
{
    m_sweepDirty = false;
    m_sweptChain = m_model->chain();
    m_sweptChain.lesson.temperature = 1.0;
    // The table is immutable and shared: the worker reads it in place (a copy of 262,144
    // logits is milliseconds of page faults on the UI thread), and its validity is known.
    auto table = m_model->table();
    if (table->distribution.logits.size() == 0 || table->problem) {
        m_sweepRuns->cancel();
        return;
    }
    auto [tracked, names] = topTokens(app::kExplorerTrackedTokens);
    m_sweepRuns->start(
        [table = std::move(table), base = m_sweptChain, tracked = std::move(tracked)](const app::WorkControl& control) {
            return engine::explorerChainSweep(table->distribution.logits, base, engine::sweepTemperatures(), tracked,
                                              control.isCancelled);
        },
        [this, names = std::move(names),
         caption = app::explorerSweepFilters(m_sweptChain)](std::vector<engine::SweepPoint>& points) {
            m_sweep->setSweep(points, names, caption);
            m_sweep->setCurrentTemperature(m_model->settings().temperature);
        });
}

void ExplorerViews::startCompare()
{
    m_compareDirty = false;
    auto table = m_model->table();
    if (table->distribution.logits.size() == 0 || table->problem)
        return;
    auto [ids, names] = topTokens(CompareChart::kTopBars);
    m_compareRuns->start(
        [table = std::move(table), chain = m_model->chain()](const app::WorkControl&) {
            return engine::compareSemanticsExplained(table->distribution.logits, chain);
        },
        [this, ids = std::move(ids), names = std::move(names)](CompareResults& comparison) {
            m_compare->setComparison(comparison, ids, names);
        });
}

void ExplorerViews::startDraws()
{
    if (m_model->survivors().empty())
        return;
    const auto n = static_cast<std::uint64_t>(m_drawSettings->count());
    const std::string rng = m_drawSettings->rng().toStdString();
    const auto seed = static_cast<std::uint64_t>(m_drawSettings->seed());
    const engine::ExplorerChain chain = m_model->chain();
    const QString caption = tr("%L1 draws, %2 seed %3, %4 draw rule")
                                .arg(n)
                                .arg(m_drawSettings->rng())
                                .arg(seed)
                                .arg(QString::fromStdString(engine::semanticsName(chain.semantics)));
    m_drawRuns->start(
        [table = m_model->table(), chain, n, rng, seed](const app::WorkControl& control) {
            DrawOutcome outcome;
            auto draws = engine::explorerDraws(table->distribution.logits, chain, n, rng, seed, control.isCancelled);
            if (draws)
                outcome.draws = std::move(draws).value();
            else
                outcome.error = QString::fromStdString(draws.error());
            return outcome;
        },
        // The strip's label is the run's own generator and seed, read now: the seed box may hold
        // another value by the time the draws land.
        [this, caption, label = tr("%1 seed %2").arg(m_drawSettings->rng()).arg(seed)](DrawOutcome& outcome) {
            if (!outcome.error.isEmpty()) {
                m_draws->clear(outcome.error);
                emit statusMessage(outcome.error);
                return;
            }
            showDraws(outcome.draws, caption, label);
        });
}

void ExplorerViews::showDraws(engine::ExplorerDraws& draws, const QString& caption, const QString& label)
{
    m_lastDraws = draws.counts;
    const engine::CandidateList& drawn = draws.expected;
    QStringList names;
    for (const auto& c : drawn) {
        if (names.size() > DrawChart::kTopBars)
            break;
        names << m_model->shownName(c.id);
    }
    std::vector<double> expected;
    for (const auto& c : drawn)
        expected.push_back(c.p);
    // Pooled so the test is valid where it is shown (a 262,144-token tail expects < 1 draw per bin).
    const QString test = QString::fromStdString(engine::pooledChiSquare(m_lastDraws.counts, expected).describe());
    m_draws->setResult(drawn, m_lastDraws, names, caption, test);

    QStringList first;
    for (std::int32_t id : draws.first)
        first << m_model->shownName(id);
    m_drawStrip = drawStripHtml(first, label, m_firstDraws, m_firstDrawsLabel);
    m_firstDraws = first;
    m_firstDrawsLabel = label;
    emit drawStripChanged(m_drawStrip);
    emit statusMessage(tr("%1: %2").arg(caption, test));
}

QString ExplorerViews::drawStripHtml(const QStringList& now, const QString& nowLabel, const QStringList& before,
                                     const QString& beforeLabel)
{
    qsizetype differ = -1;  // the first position where the two runs drew different tokens
    for (qsizetype i = 0; i < now.size() && i < before.size() && differ < 0; ++i)
        if (now[i] != before[i])
            differ = i;
    const auto row = [differ](const QStringList& tokens, const QString& label) {
        QStringList cells;
        for (qsizetype i = 0; i < tokens.size(); ++i) {
            const QString token = tokens[i].toHtmlEscaped();
            cells << (i == differ ? QStringLiteral("<b style=\"background:#ffd54f\">%1</b>").arg(token) : token);
        }
        return QStringLiteral("<b>%1:</b> %2").arg(label.toHtmlEscaped(), cells.join(QStringLiteral(" · ")));
    };
    QString html = row(now, tr("now, %1").arg(nowLabel));
    if (before.isEmpty())
        return html;
    html += QStringLiteral("<br>") + row(before, tr("before, %1").arg(beforeLabel));
    if (differ >= 0)
        html += QStringLiteral("<br>") + tr("They part at draw %1.").arg(differ + 1);
    else if (now == before)
        html += QStringLiteral("<br>") +
                (nowLabel == beforeLabel ? tr("Identical: same seed, same answer.") : tr("The same first draws."));
    return html;
}

}  // namespace logitlab::ui
