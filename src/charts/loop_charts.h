// The loop's charts. LoopStepsChart: the chosen token's probability at each step (after the
// chain), one line per run, the first step where the runs differ marked. LoopStepChart: the
// next-token distribution at one step, the model's most likely tokens as bars of their
// probability before the chain (grey when the chain cut them) and after it (orange), the chosen
// token in brackets and named in the title. stepSummary() says the rest in words. LoopStepsChart keeps its series and
// replaces their points, so a growing run refreshes it cheaply; LoopStepChart is rebuilt whole.
#pragma once

#include "engine/experiments/generation_loop.h"

#include <QList>
#include <QObject>
#include <QPointF>
#include <QStringList>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

QT_BEGIN_NAMESPACE
class QChart;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace logitlab::ui {

// The "p of each chosen token" line: each step's p up to kRawLoopSteps steps; past that, the
// mean over a trailing window of loopMeanWindow(steps) steps (about 50 windows in the run).
inline constexpr std::size_t kRawLoopSteps = 100;
std::size_t loopMeanWindow(std::size_t steps);
QList<QPointF> loopStepPoints(const std::vector<engine::LoopStep>& steps);

class LoopStepsChart : public QObject {
    Q_OBJECT
public:
    explicit LoopStepsChart(QObject* parent = nullptr);
    ~LoopStepsChart() override;
    QChart* chart() const { return m_chart; }

    struct Track {
        QString label;
        const std::vector<engine::LoopStep>* steps = nullptr;
    };
    void setTracks(const std::vector<Track>& tracks, std::optional<std::size_t> divergence);
    // About how many points a line keeps at most (the lowest and highest of each bucket of
    // steps). QtCharts strokes a line's whole path on every change, so a chart that follows a
    // growing run on screen keeps fewer than an exported image; from the next setTracks on.
    void setPointLimit(int points) { m_pointLimit = points; }

private:
    QChart* m_chart;
    int m_pointLimit = 1200;
    QValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
    std::vector<QLineSeries*> m_lines;  // one per run, the chart's
    QLineSeries* m_mark = nullptr;      // the first divergent step
};

class LoopStepChart : public QObject {
    Q_OBJECT
public:
    explicit LoopStepChart(QObject* parent = nullptr);
    ~LoopStepChart() override;
    QChart* chart() const { return m_chart; }

    // `vocabulary` names the ids; an empty step clears the chart with `message`.
    void setStep(const engine::LoopStep& step, const std::vector<std::string>& vocabulary);
    void clear(const QString& message);
    // "34 survivors, 0.535 of the model's mass cut, entropy 8.91 bits" (and mu under mirostat).
    static QString stepSummary(const engine::LoopStep& step);

private:
    QChart* m_chart;
};

}  // namespace logitlab::ui
