// The texts Qt Charts shortened on a chart as it is laid out now: axis labels and titles,
// legend labels and the title that end in "..." (Qt's elision) or "…", or hold "⋮". The export
// dialog warns with them and tests look for them at a figure's size.
#pragma once

#include <QStringList>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace logitlab::ui {

QStringList cutTexts(const QChart* chart);
// Pairs of visible texts on the chart as it is laid out now whose ink boxes overlap by more than
// a pixel each way (a tick label over an axis title, a label over the legend): "a / b".
QStringList overlappingTexts(const QChart* chart);

}  // namespace logitlab::ui
