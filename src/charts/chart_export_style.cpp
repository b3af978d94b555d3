#include "chart_export_style.h"

#include "chart_export.h"
#include "chart_style.h"

#include <QAbstractAxis>
#include <QChart>
#include <QGraphicsLayout>
#include <QLegend>

namespace logitlab::ui {

ChartExportStyle::ChartExportStyle(QChart* chart, const ChartExportOptions& options)
    : m_chart(chart),
      m_titleFont(chart->titleFont()),
      m_legendFont(chart->legend()->font()),
      m_background(chart->backgroundBrush()),
      m_backgroundVisible(chart->isBackgroundVisible()),
      m_margins(chart->margins())
{
    chart->layout()->getContentsMargins(&m_layoutMargins[0], &m_layoutMargins[1], &m_layoutMargins[2],
                                        &m_layoutMargins[3]);
    for (QAbstractAxis* axis : chart->axes()) {
        m_axisLabelFonts << axis->labelsFont();
        m_axisTitleFonts << axis->titleFont();
    }
    if (!options.screenFonts) {
        // The legend's font keeps the family and style the chart shows on screen; only its
        // size becomes points on paper.
        QFont base = m_legendFont;
        base.setPointSizeF(ChartExportOptions::kBasePoints * options.fontScale);
        setChartFonts(chart, base);
        // The window's generous margins would waste a small figure's page: a few points only.
        chart->setMargins(QMargins(2, 2, 2, 2));
        chart->layout()->setContentsMargins(3, 3, 3, 3);
    }
    if (options.transparent)
        chart->setBackgroundVisible(false);
    else
        chart->setBackgroundBrush(Qt::white);
}

ChartExportStyle::~ChartExportStyle()
{
    m_chart->setTitleFont(m_titleFont);
    m_chart->legend()->setFont(m_legendFont);
    const QList<QAbstractAxis*> axes = m_chart->axes();
    for (qsizetype i = 0; i < axes.size() && i < m_axisLabelFonts.size(); ++i) {
        axes[i]->setLabelsFont(m_axisLabelFonts[i]);
        axes[i]->setTitleFont(m_axisTitleFonts[i]);
    }
    m_chart->setMargins(m_margins);
    m_chart->layout()->setContentsMargins(m_layoutMargins[0], m_layoutMargins[1], m_layoutMargins[2], m_layoutMargins[3]);
    m_chart->setBackgroundBrush(m_background);
    m_chart->setBackgroundVisible(m_backgroundVisible);
}

}  // namespace logitlab::ui
