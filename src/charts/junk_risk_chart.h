// The junk-risk chart: P(at least one junk token) against reply length N, one colour per
// decoding setting; the analytic curve 1 - (1 - q)^N as a smooth line (evaluated at
// kCurvePoints lengths, log-spaced on a log axis, not through the table's N), the Monte Carlo estimates as
// points with 95% Wilson error bars, plain sampling and filtered settings on the same axes.
// Rebuilt whole from the result rows (never point by point); N on a log axis if asked.
#pragma once

#include "engine/experiments/junk_risk.h"

#include <QColor>
#include <QList>
#include <QObject>

#include <vector>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace logitlab::ui {

// One colour per decoding setting, shared by the junk-risk charts so a setting keeps its colour.
const QList<QColor>& junkRiskPalette();

class JunkRiskChart : public QObject {
    Q_OBJECT
public:
    // Owns the QChart unless it is handed to a view (QChartView takes ownership).
    explicit JunkRiskChart(QObject* parent = nullptr);
    ~JunkRiskChart() override;

    // Points of each analytic curve: enough that no corner shows at any export size.
    static constexpr int kCurvePoints = 400;

    QChart* chart() const { return m_chart; }

    // Rows as the experiment returns them: settings in order, lengths ascending within each.
    // A `highlightLength` above 0 draws a dashed vertical line at that N (the page's "N for the
    // highlight").
    void setRows(const std::vector<engine::JunkRiskRow>& rows, bool logLengthAxis, qint64 highlightLength = 0);

private:
    QChart* m_chart;
};

}  // namespace logitlab::ui
