// Keeps a chart at least a share of its window's height: when the window shrinks or the zoom grows
// the panes' minimums (a projector at 1024x768 and 200%), a splitter left alone gives every pane
// its minimum and the chart what is left, a sliver. After each resize, while `chart` (inside the
// splitter's pane `chartIndex`) is below `share` of the window's height, the other panes give up
// height, down to their minimums, each in proportion to what it can give. Above the share the
// splitter is left as it is, with whatever sizes the user chose.
#pragma once

#include <QtGlobal>

QT_BEGIN_NAMESPACE
class QSplitter;
class QWidget;
QT_END_NAMESPACE

namespace logitlab::ui {

void keepChartShare(QSplitter* splitter, int chartIndex, QWidget* chart, double share);

}  // namespace logitlab::ui
