// The summation-order lab's three charts, rebuilt whole from a summary:
//  - errors: each method's error in ULPs of the accumulator's format against the exact sum
//    (with the best and worst of the random orders), one bar per method;
//  - histogram: how the K shuffles' results fall, in ULPs from the exact sum;
//  - spread: max - min over the random orders, in ULPs, against N on a log axis.
#pragma once

#include "engine/experiments/summation_order.h"

#include <QObject>
#include <QString>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace logitlab::ui {

class SummationCharts : public QObject {
    Q_OBJECT
public:
    explicit SummationCharts(QObject* parent = nullptr);
    ~SummationCharts() override;

    QChart* errors() const { return m_errors; }
    QChart* histogram() const { return m_histogram; }
    QChart* spread() const { return m_spread; }

    // `storage` and `accumulator` name the formats ("float32", "bf16") for the titles.
    void setSummary(const engine::SummationSummary& summary, const QString& storage, const QString& accumulator);
    void clear();

private:
    QChart* m_errors;
    QChart* m_histogram;
    QChart* m_spread;
};

}  // namespace logitlab::ui
