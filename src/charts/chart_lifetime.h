// The life of a chart that a builder rebuilds whole: made without animation with its legend at
// the bottom, emptied of every series and axis before the next result, and deleted by its
// builder unless a QChartView took it (a view owns the chart it shows).
#pragma once

#include <QtGlobal>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace logitlab::ui {

QChart* newRebuiltChart();
void clearChart(QChart* chart);
void deleteUnlessInScene(QChart* chart);

}  // namespace logitlab::ui
