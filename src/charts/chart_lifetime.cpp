#include "charts/chart_lifetime.h"

#include "charts/chart_style.h"

#include <QChart>
#include <QGraphicsScene>
#include <QLegend>

namespace logitlab::ui {

QChart* newRebuiltChart()
{
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(8, 8, 8, 8));
    keepTicksFitted(chart);
    return chart;
}

void clearChart(QChart* chart)
{
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

void deleteUnlessInScene(QChart* chart)
{
    if (!chart->scene())
        delete chart;
}

}  // namespace logitlab::ui
