// The explorer's bar chart: per token, the probability at T (survivors highlighted, cut tokens
// grey) beside the renormalised probability the die is rolled on.
#pragma once

#include <QObject>
#include <QString>

QT_BEGIN_NAMESPACE
class QBarCategoryAxis;
class QBarSeries;
class QBarSet;
class QChart;
class QValueAxis;
QT_END_NAMESPACE

namespace logitlab::ui {

class LogitsTableModel;

class ProbabilityChart : public QObject {
    Q_OBJECT
public:
    // Owns the QChart unless it is handed to a view (QChartView takes ownership).
    explicit ProbabilityChart(const LogitsTableModel* model, QObject* parent = nullptr);
    ~ProbabilityChart() override;

    QChart* chart() const { return m_chart; }

public slots:
    void rebuild();

private:
    const LogitsTableModel* m_model;
    QChart* m_chart;
    QBarSeries* m_series;
    QBarSet* m_raw;
    QBarSet* m_renormalised;
    QBarCategoryAxis* m_tokens;
    QValueAxis* m_probability;
};

}  // namespace logitlab::ui
