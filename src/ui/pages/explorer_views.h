// The Explorer's background views of its table: the temperature sweep, the four-preset
// comparison and the seeded draws, each computed on a worker through a RunController and put
// in its chart on the UI thread. The sweep and Compare run the latest request only (one worker
// each, so a slider drag shows the newest result); draws supersede each other and count in the
// page's busy state. Compare runs only while on screen, and draws belong to the settings they
// were made with.
#pragma once

#include "app/run/run_controller.h"
#include "engine/core/result.h"
#include "engine/experiments/temperature_sweep.h"
#include "engine/sampler/candidate.h"
#include "engine/sampler/explorer_chain.h"
#include "engine/sampler/explorer_draws.h"
#include "engine/sampler/semantics_comparison.h"
#include "engine/stats/draw_counts.h"

#include <QObject>
#include <QStringList>

#include <cstdint>
#include <utility>
#include <vector>

namespace logitlab::ui {

class CompareChart;
class DrawChart;
class DrawPanel;
class LogitsTableModel;
class SweepChart;

class ExplorerViews : public QObject {
    Q_OBJECT
public:
    ExplorerViews(const LogitsTableModel* model, SweepChart* sweep, CompareChart* compare, DrawChart* draws,
                  const DrawPanel* drawSettings, QObject* parent = nullptr);

    // The table or chain changed: the sweep follows (unless only T moved), Compare when
    // `compareShown` (else when next shown), the draws when `drawsShown` (else they are cleared).
    void resultsChanged(bool compareShown, bool drawsShown);
    // The logits changed: the next resultsChanged() sweeps again even if the chain did not move.
    void logitsChanged() { m_sweepDirty = true; }
    // A chart tab came on screen: Compare catches up, the draws are made if there are none.
    void compareShown();
    void drawsShown();
    // The draws on the chart no longer match the settings: redone at once when the Draws tab
    // is showing, else cleared with a note and redone when it is shown.
    void drawsStale(bool drawsShown);
    void startDraws();
    // Stops the sweep and the draws (the compare has no stop and finishes).
    void cancel();

    bool sweepRunning() const { return m_sweepRuns->isRunning(); }
    bool compareRunning() const { return m_compareRuns->isRunning(); }
    bool drawsRunning() const { return m_drawRuns->isRunning(); }
    const engine::DrawCounts& lastDraws() const { return m_lastDraws; }
    // For the page's busy state: the draws (the views' other work is not shown as busy).
    app::RunControllerBase* drawRuns() const { return m_drawRuns; }

    // The first draws of the newest run against the run before it, the first difference marked:
    // "same seed, same answer" as a picture. HTML for a label; empty before any draws.
    QString drawStrip() const { return m_drawStrip; }
    // The strip for two runs' first draws (token names) and their labels.
    static QString drawStripHtml(const QStringList& now, const QString& nowLabel, const QStringList& before,
                                 const QString& beforeLabel);

signals:
    void statusMessage(const QString& message);
    void drawStripChanged(const QString& html);

private:
    struct DrawOutcome {
        engine::ExplorerDraws draws;
        QString error;
    };
    using CompareResults = engine::SemanticsComparison;

    void startSweep();
    void startCompare();
    void showDraws(engine::ExplorerDraws& draws, const QString& caption, const QString& label);
    // The `count` most likely tokens (by logit): ids and names, for the charts that track a few.
    std::pair<std::vector<std::int32_t>, QStringList> topTokens(int count) const;

    const LogitsTableModel* m_model;
    SweepChart* m_sweep;
    CompareChart* m_compare;
    DrawChart* m_draws;
    const DrawPanel* m_drawSettings;
    app::RunController<std::vector<engine::SweepPoint>>* m_sweepRuns;
    app::RunController<CompareResults>* m_compareRuns;
    app::RunController<DrawOutcome>* m_drawRuns;
    bool m_sweepDirty = true;
    bool m_compareDirty = true;
    engine::ExplorerChain m_sweptChain;  // the chain (at T = 1) of the newest sweep requested
    engine::DrawCounts m_lastDraws;
    QStringList m_firstDraws;  // the newest run's first draws, and what produced them
    QString m_firstDrawsLabel;
    QString m_drawStrip;
};

}  // namespace logitlab::ui
