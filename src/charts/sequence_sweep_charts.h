// The charts of a seed sweep over whole replies, rebuilt whole from a census:
//  - distinct: how many distinct replies the first k seeds gave, against k (a curve that flattens
//    when more seeds stop finding new replies; the diagonal is "every seed its own reply");
//  - first difference: per step, how many seeds' replies first leave the most common reply there.
// Counts only: no test statistic is drawn, so nothing shown depends on expected counts.
#pragma once

#include "engine/experiments/reply_census.h"

#include <QObject>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace logitlab::ui {

class SequenceSweepCharts : public QObject {
    Q_OBJECT
public:
    // The distinct-replies curve keeps at most this many points (evenly spaced seeds, the last
    // always), so a million seeds draw as fast as a hundred.
    static constexpr std::size_t kMaxCurvePoints = 2000;

    explicit SequenceSweepCharts(QObject* parent = nullptr);
    ~SequenceSweepCharts() override;

    QChart* distinct() const { return m_distinct; }
    QChart* firstDifference() const { return m_firstDifference; }

    void setCensus(const engine::ReplyCensus& census, std::size_t steps);

private:
    QChart* m_distinct;
    QChart* m_firstDifference;
};

}  // namespace logitlab::ui
