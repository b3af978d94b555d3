// The Loop page's per-token strip: each generated token of the run as a chip in a row (the
// branch's in a second row, step for step under the main run's), coloured by how surprising the
// pick was to the model (its surprisal, -log10 of the model's p: pale for a likely token, dark
// orange for one below 1 in 1,000). Hovering a chip shows that step's top candidates with the
// model's p and the p after the chain (or "cut"), the survivors and the cut mass, and in a replay
// the model's own token against the pick. A click shows the step (the page's chart follows);
// a right-click, Enter or a double-click offers to branch there: force one of the candidates,
// or reseed the draws. A forced step has a dashed frame, a replayed step whose pick is not the
// model's token a purple underline, the first divergent step a red frame. Only the chips in view
// are painted, and a run's widths are measured once per token, so a 4,096-step run costs the UI
// thread what a screenful does.
#pragma once

#include "engine/experiments/generation_loop.h"

#include <QAbstractScrollArea>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QMenu;
QT_END_NAMESPACE

namespace logitlab::ui {

class LoopTokenStrip : public QAbstractScrollArea {
    Q_OBJECT
public:
    enum Lane { Main = 0, Branch = 1 };
    // A run and its generation: a new generation is a replaced run, measured anew; the same one
    // only gained or lost steps at its end.
    struct Run {
        const engine::GenerationLoop* loop = nullptr;
        quint64 generation = 0;
    };
    static constexpr int kMenuCandidates = 8;  // the top candidates a hover and the branch menu list

    explicit LoopTokenStrip(QWidget* parent = nullptr);

    void setRuns(Run main, Run branch, std::optional<std::size_t> divergence);
    // The step framed as the one shown; scrolled into view when it changed.
    void setCurrentStep(std::optional<std::size_t> step);
    std::optional<std::size_t> currentStep() const { return m_current; }

    std::size_t stepCount(Lane lane = Main) const;
    // A step's chip in viewport coordinates (empty when the lane has no such step).
    QRect chipRect(std::size_t step, Lane lane = Main) const;
    struct Hit {
        std::size_t step = 0;
        Lane lane = Main;
    };
    std::optional<Hit> hitAt(QPoint viewportPos) const;
    // The hover text of a chip (HTML).
    QString describe(std::size_t step, Lane lane = Main) const;
    // The branch menu for a step of the main run, not shown: the caller execs it (tests trigger
    // its actions). Each action emits branchRequested.
    QMenu* branchMenu(std::size_t step, QWidget* parent);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void stepChosen(std::size_t step);
    // Branch at `step`: force `token`, or (nullopt) reseed the draws there.
    void branchRequested(std::size_t step, std::optional<std::int32_t> token);

protected:
    void paintEvent(QPaintEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    const engine::GenerationLoop* loopOf(Lane lane) const;
    QString chipText(std::size_t step, Lane lane) const;
    // Measures the columns from step `from` on (a column is as wide as its widest chip).
    void measureFrom(std::size_t from);
    void updateScrollRange();
    void ensureVisible(std::size_t step);
    void openBranchMenu(std::size_t step, QPoint globalPos);
    int laneTop(Lane lane) const;
    int rowHeight() const;
    int labelWidth() const;

    Run m_main;
    Run m_branch;
    std::optional<std::size_t> m_divergence;
    std::optional<std::size_t> m_current;
    std::size_t m_measured[2] = {0, 0};  // steps of each lane the columns were measured for
    std::vector<int> m_columnX;          // column i spans [m_columnX[i], m_columnX[i + 1])
};

}  // namespace logitlab::ui
