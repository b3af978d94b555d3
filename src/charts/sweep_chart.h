// The temperature sweep: the probability of the most likely tokens as T goes from 0.05 to 3
// (left axis) and how many tokens survive top-k/top-p at each T (right axis, a step line),
// with a marker at the current temperature. It shows the lesson's interaction at a glance:
// for top-p 0.9 on the example, 2 survivors at T = 0.5, 3 at T = 1, 4 at T = 1.5.
#pragma once

#include "engine/experiments/temperature_sweep.h"

#include <QObject>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QChart;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace logitlab::ui {

class SweepChart : public QObject {
    Q_OBJECT
public:
    explicit SweepChart(QObject* parent = nullptr);
    ~SweepChart() override;

    QChart* chart() const { return m_chart; }

    // Replaces every curve. `names` labels the tracked tokens; `filters` says what the
    // survivors curve counts ("top-p 0.9").
    void setSweep(const std::vector<engine::SweepPoint>& points, const QStringList& names, const QString& filters);
    void setCurrentTemperature(double temperature);
    // Survivors at the sweep point nearest `temperature` (-1 without a sweep), for tests.
    int survivorsAt(double temperature) const;

private:
    QChart* m_chart;
    QValueAxis* m_temperature;
    QValueAxis* m_probability;
    QValueAxis* m_count;
    QLineSeries* m_survivors;
    QLineSeries* m_marker;
    QList<QLineSeries*> m_tokens;
    std::vector<engine::SweepPoint> m_points;
};

}  // namespace logitlab::ui
