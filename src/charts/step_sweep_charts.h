// The charts of a seed sweep over every step of an imported file, rebuilt whole from its rows:
//  - tokens: per step, the tokens the chain leaves and how many of them were drawn;
//  - p-values: per step, the KS p-value of the per-seed fits, only at steps where the test is
//    valid (a step with one outcome or too few draws per token has no point), with the 0.01 line.
#pragma once

#include "app/kinds/step_sweep_job.h"

#include <QObject>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace logitlab::ui {

class StepSweepCharts : public QObject {
    Q_OBJECT
public:
    explicit StepSweepCharts(QObject* parent = nullptr);
    ~StepSweepCharts() override;

    QChart* tokens() const { return m_tokens; }
    QChart* pValues() const { return m_pValues; }

    void setRows(const std::vector<app::StepSweepRow>& rows);

private:
    QChart* m_tokens;
    QChart* m_pValues;
};

}  // namespace logitlab::ui
