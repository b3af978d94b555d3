#include "charts/category_names.h"

#include <QBarCategoryAxis>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsSimpleTextItem>

#include <algorithm>
#include <cmath>

namespace logitlab::ui {

namespace {

constexpr double kMinPointSize = 5.0;
constexpr double kGap = 6.0;  // between a name and the plot

}  // namespace

CategoryNames* CategoryNames::attach(QChart* chart, QBarCategoryAxis* axis) { return new CategoryNames(chart, axis); }

CategoryNames::CategoryNames(QChart* chart, QBarCategoryAxis* axis)
    : QObject(chart), m_chart(chart), m_axis(axis), m_ownLeftMargin(chart->margins().left())
{
    axis->setLabelsVisible(false);
    for (const QString& name : axis->categories()) {
        auto* item = new QGraphicsSimpleTextItem(name, chart);
        item->setZValue(chart->zValue() + 5);
        m_items.push_back(item);
    }
    // The plot moves with the window, an export's size, a new font (zoom, export style) and a
    // new colour (the export's palette); each lays the names out again.
    connect(chart, &QChart::plotAreaChanged, this, &CategoryNames::place);
    connect(axis, &QAbstractAxis::labelsFontChanged, this, &CategoryNames::place);
    connect(axis, &QAbstractAxis::labelsBrushChanged, this, &CategoryNames::place);
    // Removed from the chart (a rebuild deletes its axes): the names go with it.
    connect(axis, &QObject::destroyed, this, [this] {
        for (QGraphicsSimpleTextItem* item : m_items)
            delete item;
        m_items.clear();
        m_axis = nullptr;
        QMargins margins = m_chart->margins();
        margins.setLeft(m_ownLeftMargin);
        m_chart->setMargins(margins);
        deleteLater();
    });
    place();
}

void CategoryNames::place()
{
    if (!m_axis || m_items.empty())
        return;
    const QRectF plot = m_chart->plotArea();
    const double slot = plot.height() / static_cast<double>(m_items.size());
    QFont font = m_axis->labelsFont();
    const double own = font.pointSizeF() > 0 ? font.pointSizeF() : 9.0;
    // A name a little shorter than its slot, never larger than the axis's own font.
    const double line = QFontMetricsF(font).height();
    m_pointSize = slot > 0 ? std::clamp(own * 0.9 * slot / line, std::min(own, kMinPointSize), own) : own;
    font.setPointSizeF(m_pointSize);
    const QFontMetricsF metrics(font);
    double widest = 0.0;
    for (QGraphicsSimpleTextItem* item : m_items)
        widest = std::max(widest, metrics.horizontalAdvance(item->text()));
    // Room for the widest name left of the plot; setting the margin moves the plot, which calls
    // place() again with the same width, and then nothing changes.
    QMargins margins = m_chart->margins();
    const int left = static_cast<int>(std::ceil(widest + kGap)) + m_ownLeftMargin;
    if (margins.left() != left) {
        margins.setLeft(left);
        m_chart->setMargins(margins);
        return;
    }
    // Category 0 is at the bottom of a horizontal bar chart.
    for (std::size_t i = 0; i < m_items.size(); ++i) {
        QGraphicsSimpleTextItem* item = m_items[i];
        item->setFont(font);
        item->setBrush(m_axis->labelsBrush());
        const double centre = plot.bottom() - (static_cast<double>(i) + 0.5) * slot;
        item->setPos(plot.left() - kGap - metrics.horizontalAdvance(item->text()), centre - metrics.height() / 2.0);
        item->setVisible(!plot.isEmpty());
    }
}

QStringList CategoryNames::shownNames() const
{
    QStringList names;
    for (const QGraphicsSimpleTextItem* item : m_items)
        if (item->isVisible())
            names << item->text();
    return names;
}

double CategoryNames::shownPointSize() const { return m_pointSize; }

}  // namespace logitlab::ui
