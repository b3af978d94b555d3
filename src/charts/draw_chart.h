// Draw results: for each survivor, how often N seeded draws picked it against the N * p the
// sampler promises, with the goodness-of-fit test (or why there is none) in the title, so a class can see sampling
// converge (or a bug show up).
#pragma once

#include "engine/sampler/candidate.h"
#include "engine/stats/draw_counts.h"

#include <QObject>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QBarCategoryAxis;
class QBarSeries;
class QBarSet;
class QChart;
class QValueAxis;
QT_END_NAMESPACE

namespace logitlab::ui {

class DrawChart : public QObject {
    Q_OBJECT
public:
    static constexpr int kTopBars = 20;

    explicit DrawChart(QObject* parent = nullptr);
    ~DrawChart() override;

    QChart* chart() const { return m_chart; }

    // `names` has one entry per candidate; `test` is the fit test in words. `caption` says what was drawn ("1,000
    // draws, mulberry32 seed 42").
    void setResult(const engine::CandidateList& list, const engine::DrawCounts& counts, const QStringList& names,
                   const QString& caption, const QString& test);
    void clear(const QString& message);
    // The counts printed on the bars (drawn and expected), readable from the back of a room.
    void setValuesOnBars(bool on);

private:
    QChart* m_chart;
    QBarSeries* m_series;
    QBarSet* m_observed;
    QBarSet* m_expected;
    QBarCategoryAxis* m_tokens;
    QValueAxis* m_count;
};

}  // namespace logitlab::ui
