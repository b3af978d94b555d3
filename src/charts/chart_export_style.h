// While alive, gives a chart the look of its export: fonts in points for the physical page
// (scaled by the font scale) and a white or transparent background; puts the on-screen fonts
// and background back when it goes. exportChart() and the dialog's preview use it; tests use it
// to read the fonts a figure is drawn with. Text is always dark on the figure (a dark window
// theme's light text would vanish on white paper), and once the chart is laid out at the page
// size, fitToPage() wraps what Qt would cut with "...": the title to the page's width, axis
// titles to the plot's sides, and a legend whose one row would cut its labels becomes a
// FigureLegend that wraps them into rows.
#pragma once

#include <QBrush>
#include <QFont>
#include <QList>
#include <QMargins>
#include <QPair>
#include <QRectF>
#include <QString>
#include <QStringList>

#include <array>
#include <functional>
#include <memory>

QT_BEGIN_NAMESPACE
class QChart;
class QLegendMarker;
QT_END_NAMESPACE

namespace logitlab::ui {

struct ChartExportOptions;
class FigureLegend;

class ChartExportStyle {
public:
    ChartExportStyle(QChart* chart, const ChartExportOptions& options);
    ~ChartExportStyle();
    ChartExportStyle(const ChartExportStyle&) = delete;
    ChartExportStyle& operator=(const ChartExportStyle&) = delete;

    // After the chart has its page size: wraps the title and the axis titles;
    // `relayout` lays the chart out again after a change.
    void fitToPage(const std::function<void()>& relayout);

private:
    QChart* m_chart;
    bool m_fit;        // figure fonts: text is fitted to the page
    bool m_showTitle;  // the options ask for the chart's title
    QString m_title;
    QStringList m_axisTitles;  // in chart->axes() order
    QFont m_titleFont;
    QFont m_legendFont;
    QList<QFont> m_axisLabelFonts;  // in chart->axes() order
    QList<QFont> m_axisTitleFonts;
    QBrush m_background;
    bool m_backgroundVisible;
    QMargins m_margins;
    std::array<qreal, 4> m_layoutMargins{};  // left, top, right, bottom
    bool m_legendVisible;
    QList<QPair<QLegendMarker*, int>> m_markerShapes;  // each changed marker's own QLegend::MarkerShape
    std::unique_ptr<FigureLegend> m_figureLegend;      // in place of Qt's legend while alive
};

// `html` with <br> added between words so that no line is wider than `width` in `font`
// (a single word wider than that stays whole). Lines already broken with <br> are kept.
QString wrapChartText(const QString& html, const QFont& font, double width);

}  // namespace logitlab::ui
