// One look for every chart: colours from the application palette (so light and dark desktops
// both read well, and a projected lecture slide matches the window), the series colours the
// pages share, and no animation (a chart rebuilt on every slider step must not lag behind).
#pragma once

#include <QColor>

QT_BEGIN_NAMESPACE
class QChart;
class QFont;
class QPalette;
class QValueAxis;
QT_END_NAMESPACE

namespace logitlab::ui {

namespace chart_colors {
inline const QColor kSurvivor{0x1f, 0x77, 0xb4};      // blue: kept by the sampler
inline const QColor kCut{0xb0, 0xb0, 0xb0};           // grey: removed by the filters
inline const QColor kRenormalised{0xff, 0x7f, 0x0e};  // orange: what the die is rolled on
inline const QColor kCutLine{0xd6, 0x27, 0x28};       // red: where the filter cut
}  // namespace chart_colors

// Colours from `palette`, fonts from the application font (so View > Zoom reaches the charts).
void styleChart(QChart* chart, const QPalette& palette);
// The colour part of styleChart(): background, title, legend, axes, bar values.
void setChartColours(QChart* chart, const QPalette& palette);
// Value axes whose ticks would crowd their labels (a short plot, a zoomed font) get fewer ticks,
// on the chart's own values where the counts divide, so no label is shortened to "..."; with
// room, the chart's own tick count is back. styleChart() connects it to the chart's plot-area
// and tick-count changes. Log axes too: a crowded one labels every second or third decade.
void fitValueTicks(QChart* chart);
// Connects fitValueTicks() to the chart's plot-area changes, once; styleChart() does, and so do
// the charts an experiment's result builds (on screen and in every export).
void keepTicksFitted(QChart* chart);
// A chart's own range and tick count for `axis`, shown already fitted to the plot as
// fitValueTicks() would fit them. A chart rebuilt on every slider step sets its ticks through
// this: set directly, its own count and then the queued fit changed the axis twice per step,
// each change a relayout of the whole chart (its 21 turned token labels included).
void setValueAxisTicks(QChart* chart, QValueAxis* axis, double min, double max, int ticks);
// Ticks on whole numbers for counts, steps and ULPs: a step of 1, 2 or 5 x 10^k with at most
// `most` ticks covering [low, high], labelled "%d" (a range of 0..1.5 in 4 ticks read "0 0 1 1").
// With `pad` (bars centred on the numbers) the range is [low - pad, high + pad] and the ticks
// stay on whole numbers inside it (-0.5..49.5 in 5 fixed ticks read "0 12 24 37 49").
void setWholeNumberTicks(QValueAxis* axis, double low, double high, int most = 7, double pad = 0.0);
// The chart's title, legend and axis fonts derived from `base`: the title bold at 1.15 times its
// size, the legend, tick labels and axis titles at 1.1 times.
void setChartFonts(QChart* chart, const QFont& base);

}  // namespace logitlab::ui
