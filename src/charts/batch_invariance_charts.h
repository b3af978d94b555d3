// The batch-invariance lab's charts, rebuilt whole from an outcome. One-step study: the flip
// map (batch size across, precision up, a red mark where that batch size's kernel flips the
// nearest tie's argmax) and the gap against the reduction error for every searched state
// (log-log, flips in red, the line gap = 2 x error). Decode study: where runs first leave the
// batch-invariant completion (runs per step bin), and how many distinct states the runs occupy
// step by step, with the (prefix, kernel) evaluations that cost. Model decode: the steps each
// batch size's greedy reply shares with the invariant kernel's, and its largest logit change
// after the prompt.
#pragma once

#include <QObject>

QT_BEGIN_NAMESPACE
class QChart;
class QLineSeries;
QT_END_NAMESPACE

namespace logitlab::app {
struct BatchInvarianceOutcome;
}

namespace logitlab::ui {

// The gap-against-error chart's bound from x = low to y = high: gap = 2 x error (a flip needs
// the top-two gap to be at most twice the error, since both logits can move by the error).
QLineSeries* flipBoundLine(double low, double high);

class BatchInvarianceCharts : public QObject {
    Q_OBJECT
public:
    explicit BatchInvarianceCharts(QObject* parent = nullptr);
    ~BatchInvarianceCharts() override;

    // One step: flip map and gap vs error. Decode: divergence positions and distinct states.
    QChart* first() const { return m_first; }
    QChart* second() const { return m_second; }
    void setOutcome(const app::BatchInvarianceOutcome& outcome);

private:
    QChart* m_first;
    QChart* m_second;
};

}  // namespace logitlab::ui
