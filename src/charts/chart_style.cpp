#include "chart_style.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QChart>
#include <QFont>
#include <QFontMetricsF>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <QLegend>
#include <QPalette>

namespace logitlab::ui {

namespace {

// The smallest of 1, 2, 5 x 10^k at least `raw`: tick intervals a reader can add up, and
// that the charts' label formats (one significant digit more than the step) print exactly.
double niceInterval(double raw)
{
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * decade >= raw * (1.0 - 1e-9))
            return m * decade;
    return 10.0 * decade;
}

}  // namespace

void fitValueTicks(QChart* chart)
{
    const QRectF plot = chart->plotArea();
    if (plot.isEmpty())
        return;
    for (QAbstractAxis* a : chart->axes()) {
        auto* axis = qobject_cast<QValueAxis*>(a);
        if (axis == nullptr || !(axis->max() > axis->min()))
            continue;
        const QFontMetricsF metrics(axis->labelsFont());
        const bool vertical = axis->orientation() == Qt::Vertical;
        // Room per label: a line and a half upright, the widest end label and a gap across.
        const double each = vertical ? 1.5 * metrics.height()
                                     : 1.4 * std::max(metrics.horizontalAdvance(QString::number(axis->max())),
                                                      metrics.horizontalAdvance(QString::number(axis->min())));
        const double length = vertical ? plot.height() : plot.width();
        const int fits = std::max(2, static_cast<int>(length / each) + 1);
        if (axis->tickCount() <= fits) {
            axis->setTickType(QValueAxis::TicksFixed);
            continue;
        }
        // Too many ticks for the room: Qt Charts would shorten every label to "...".
        const double interval = niceInterval((axis->max() - axis->min()) / (fits - 1));
        axis->setTickType(QValueAxis::TicksDynamic);
        axis->setTickAnchor(std::ceil(axis->min() / interval) * interval);
        axis->setTickInterval(interval);
    }
}

void styleChart(QChart* chart, const QPalette& palette)
{
    const QColor text = palette.color(QPalette::WindowText);
    const QColor base = palette.color(QPalette::Base);
    QColor grid = text;
    grid.setAlphaF(0.15);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundBrush(base);
    chart->setBackgroundRoundness(0);
    chart->setTitleBrush(text);
    chart->legend()->setLabelColor(text);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(8, 8, 8, 8));
    setChartFonts(chart, QApplication::font());
    // Once per chart: refit the ticks whenever the plot's size changes.
    if (!chart->property("logitlabFitsTicks").toBool()) {
        chart->setProperty("logitlabFitsTicks", true);
        QObject::connect(chart, &QChart::plotAreaChanged, chart, [chart] { fitValueTicks(chart); });
    }
    for (QAbstractAxis* axis : chart->axes()) {
        axis->setLabelsColor(text);
        axis->setTitleBrush(text);
        axis->setLinePenColor(text);
        axis->setGridLineColor(grid);
    }
}

void setChartFonts(QChart* chart, const QFont& base)
{
    // A little larger than the window's text: a chart is read from further away (a projector,
    // a figure shrunk into a column).
    QFont text = base;
    text.setPointSizeF(base.pointSizeF() * 1.1);
    QFont title = base;
    title.setBold(true);
    title.setPointSizeF(base.pointSizeF() * 1.3);
    chart->setTitleFont(title);
    chart->legend()->setFont(text);
    for (QAbstractAxis* axis : chart->axes()) {
        axis->setLabelsFont(text);
        axis->setTitleFont(text);
    }
}

}  // namespace logitlab::ui
