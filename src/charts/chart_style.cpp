#include "chart_style.h"

#include <QAbstractAxis>
#include <QChart>
#include <QLegend>
#include <QPalette>

namespace logitlab::ui {

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
    for (QAbstractAxis* axis : chart->axes()) {
        axis->setLabelsColor(text);
        axis->setTitleBrush(text);
        axis->setLinePenColor(text);
        axis->setGridLineColor(grid);
    }
}

}  // namespace logitlab::ui
