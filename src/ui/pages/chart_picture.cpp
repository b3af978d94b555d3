#include "ui/pages/chart_picture.h"

#include "charts/chart_export.h"
#include "ui/pages/experiment_page.h"

#include <QPainter>

namespace logitlab::ui {

ChartPicture::ChartPicture(Page* page, QWidget* parent) : QWidget(parent), m_page(page)
{
    setMinimumSize(320, 240);
    if (auto* experiment = qobject_cast<ExperimentPage*>(page))
        connect(experiment, &ExperimentPage::runEnded, this, &ChartPicture::redraw);
}

void ChartPicture::redraw()
{
    m_picture = {};
    if (m_page && m_page->chart() && width() > 0 && height() > 0) {
        ChartExportOptions options;
        options.unit = LengthUnit::Inch;
        options.width = width() / 96.0;
        options.height = height() / 96.0;
        options.dpi = 96;
        options.fontScale = ChartExportOptions::kMaxFontScale;
        options.title = true;
        m_picture = chartImage(m_page->chart(), options);
    }
    update();
}

void ChartPicture::paintEvent(QPaintEvent* /*event*/)
{
    QPainter painter(this);
    if (m_picture.isNull()) {
        painter.drawText(rect(), Qt::AlignCenter, tr("This page has no chart yet: run it first."));
        return;
    }
    painter.drawImage(QPoint((width() - m_picture.width()) / 2, (height() - m_picture.height()) / 2), m_picture);
}

void ChartPicture::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    redraw();
}

}  // namespace logitlab::ui
