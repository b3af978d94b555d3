// Names under a bar chart that stay whole at any size. Qt Charts cuts a bar category axis's name
// to its bar's slot: level ones to the slot's width, turned ones to "⋮" once a line is taller
// than the slot ("ban..." under five compared tokens at one column, "⋮" under a seed sweep's 20
// token ids). Here the bar axis keeps its categories and ticks but shows no names; a second
// axis below it shows them: level when each fits its slot, else turned upright, and when even
// upright lines are wider than a slot, every k-th name (the bars all stay; the CSV and the
// hover have every name).
#pragma once

#include <QCategoryAxis>
#include <QObject>
#include <QPointer>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QBarCategoryAxis;
class QChart;
QT_END_NAMESPACE

namespace logitlab::ui {

class BarNames : public QObject {
    Q_OBJECT
public:
    // `bars` (horizontal, attached to `chart`). Lives as the axis's child; lays the names out
    // again whenever the plot, the categories or their font change (a window, an export's size).
    static BarNames* attach(QChart* chart, QBarCategoryAxis* bars);

    QStringList shownNames() const;  // in order, for tests
    int stride() const { return m_stride; }
    bool upright() const { return m_angle != 0; }

private:
    BarNames(QChart* chart, QBarCategoryAxis* bars);
    void place();

    QChart* m_chart;
    QBarCategoryAxis* m_bars;
    QPointer<QCategoryAxis> m_names;  // the chart owns it
    int m_stride = 0;
    int m_angle = 0;
    QStringList m_placed;  // the categories the names were laid out for
};

}  // namespace logitlab::ui
