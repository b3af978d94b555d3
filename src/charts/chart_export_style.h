// While alive, gives a chart the look of its export: fonts in points for the physical page
// (scaled by the font scale) and a white or transparent background; puts the on-screen fonts
// and background back when it goes. exportChart() and the dialog's preview use it; tests use it
// to read the fonts a figure is drawn with.
#pragma once

#include <QBrush>
#include <QFont>
#include <QList>
#include <QMargins>

#include <array>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace logitlab::ui {

struct ChartExportOptions;

class ChartExportStyle {
public:
    ChartExportStyle(QChart* chart, const ChartExportOptions& options);
    ~ChartExportStyle();
    ChartExportStyle(const ChartExportStyle&) = delete;
    ChartExportStyle& operator=(const ChartExportStyle&) = delete;

private:
    QChart* m_chart;
    QFont m_titleFont;
    QFont m_legendFont;
    QList<QFont> m_axisLabelFonts;  // in chart->axes() order
    QList<QFont> m_axisTitleFonts;
    QBrush m_background;
    bool m_backgroundVisible;
    QMargins m_margins;
    std::array<qreal, 4> m_layoutMargins{};  // left, top, right, bottom
};

}  // namespace logitlab::ui
