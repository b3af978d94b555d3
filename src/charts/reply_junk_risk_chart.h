// The junk-risk charts along a reply, one colour per decoding setting: q_t per step (the chance
// that step t's token is junk after the setting's chain; a log axis when q spans more than two
// decades, steps with q = 0 then left out), and the cumulative risk 1 - prod (1 - q_t) over the
// first n tokens as a line, the Monte Carlo estimates as points between dotted 95% Wilson lines.
// Rebuilt whole from the result rows.
#pragma once

#include "engine/experiments/reply_junk_risk.h"

#include <QObject>

#include <vector>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace logitlab::ui {

class ReplyJunkRiskChart : public QObject {
    Q_OBJECT
public:
    // Owns the QCharts unless they are handed to views (QChartView takes ownership).
    explicit ReplyJunkRiskChart(QObject* parent = nullptr);
    ~ReplyJunkRiskChart() override;

    QChart* risk() const { return m_risk; }  // cumulative risk by step
    QChart* q() const { return m_q; }        // q_t by step
    bool qOnLogAxis() const { return m_qLog; }

    // Rows as the experiment returns them: settings in order, steps ascending within each.
    void setRows(const std::vector<engine::ReplyJunkRiskRow>& rows);

private:
    QChart* m_risk;
    QChart* m_q;
    bool m_qLog = false;
};

}  // namespace logitlab::ui
