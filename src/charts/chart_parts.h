// Small pieces the experiment charts share: a plain chart (no animation, legend at the bottom,
// small margins), clearing one for a rebuild, and deleting one unless a view owns it.
#pragma once

#include <QtGlobal>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace logitlab::ui {

QChart* newPlainChart();
// Removes every series and axis a previous result put on the chart.
void clearChart(QChart* chart);
// A QChartView that shows a chart owns it; a chart never shown is deleted here.
void deleteUnlessInScene(QChart* chart);

}  // namespace logitlab::ui
