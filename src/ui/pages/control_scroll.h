// A page's column of controls in a vertical scroll area: on a small screen (1024x768, a zoomed
// font, a verdict of several lines after a run) the column scrolls instead of squeezing its rows
// onto each other.
#pragma once

#include <QtGlobal>

QT_BEGIN_NAMESPACE
class QScrollArea;
class QWidget;
QT_END_NAMESPACE

namespace logitlab::ui {

// The scroll area's object name: View > Controls hides every page's column of controls by it,
// giving the charts the window's width (a 1024 px screen at 200%).
inline constexpr char kPageControls[] = "pageControls";

// `panel` in a frameless scroll area as wide as the panel wants (no horizontal scroll bar).
QScrollArea* controlScroll(QWidget* panel);

}  // namespace logitlab::ui
