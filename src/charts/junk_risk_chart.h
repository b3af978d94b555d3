// The junk-risk chart: P(at least one junk token) against reply length N, one colour per
// decoding setting; the analytic curve 1 - (1 - q)^N as a line, the Monte Carlo estimates as
// points with 95% Wilson error bars, plain sampling and filtered settings on the same axes.
// Rebuilt whole from the result rows (never point by point); N on a log axis if asked.
#pragma once

#include "junk_risk.h"

#include <QObject>

#include <vector>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace logitlab::ui {

class JunkRiskChart : public QObject {
    Q_OBJECT
public:
    // Owns the QChart unless it is handed to a view (QChartView takes ownership).
    explicit JunkRiskChart(QObject* parent = nullptr);
    ~JunkRiskChart() override;

    QChart* chart() const { return m_chart; }

    // Rows as the experiment returns them: settings in order, lengths ascending within each.
    void setRows(const std::vector<engine::JunkRiskRow>& rows, bool logLengthAxis);

private:
    QChart* m_chart;
};

} // namespace logitlab::ui
