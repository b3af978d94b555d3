#include "charts/bar_names.h"

#include <QBarCategoryAxis>
#include <QCategoryAxis>
#include <QChart>
#include <QFontMetricsF>

#include <algorithm>
#include <cmath>

namespace logitlab::ui {

namespace {

// Qt Charts keeps 4 px either side of a name within its slot.
constexpr double kPadding = 8.0;

}  // namespace

BarNames* BarNames::attach(QChart* chart, QBarCategoryAxis* bars) { return new BarNames(chart, bars); }

BarNames::BarNames(QChart* chart, QBarCategoryAxis* bars)
    : QObject(bars), m_chart(chart), m_bars(bars), m_names(new QCategoryAxis)
{
    m_names->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_names->setGridLineVisible(false);
    m_names->setLineVisible(false);
    m_names->setTitleText(bars->titleText());
    m_names->setLabelsFont(bars->labelsFont());
    m_names->setLabelsBrush(bars->labelsBrush());
    m_names->setTitleFont(bars->titleFont());
    m_names->setTitleBrush(bars->titleBrush());
    chart->addAxis(m_names, Qt::AlignBottom);
    // The bar axis keeps its title for the data export (chart_data.h); this one shows it.
    bars->setLabelsVisible(false);
    bars->setTitleVisible(false);
    connect(chart, &QChart::plotAreaChanged, this, &BarNames::place);
    connect(bars, &QBarCategoryAxis::categoriesChanged, this, &BarNames::place);
    connect(bars, &QAbstractAxis::titleTextChanged, m_names, &QAbstractAxis::setTitleText);
    connect(m_names, &QAbstractAxis::labelsFontChanged, this, &BarNames::place);
    // The names axis is the chart's, like the bars: a rebuild (clearChart) deletes both.
    place();
}

void BarNames::place()
{
    if (!m_names)
        return;
    const QStringList names = m_bars->categories();
    const double width = m_chart->plotArea().width();
    if (names.isEmpty() || width <= 0.0)
        return;
    const QFontMetricsF metrics(m_names->labelsFont());
    double widest = 0.0;
    for (const QString& name : names)
        widest = std::max(widest, metrics.horizontalAdvance(name));
    // Qt Charts gives each name of a category axis the axis's width over (names + 1), less the
    // padding; a name needs its width there (level) or its line's height (upright).
    const auto fits = [&](int stride, double needed) {
        const auto shown = (names.size() + stride - 1) / stride;
        return width / static_cast<double>(shown + 1) - kPadding >= needed + 1.0;
    };
    // Level when every name fits; else upright, every k-th name when the lines do not all fit.
    // Turning changes the plot's height, not its width: the choice then holds.
    const int angle = fits(1, widest) ? 0 : -90;
    int stride = 1;
    while (angle != 0 && stride < names.size() && !fits(stride, metrics.height()))
        ++stride;
    if (angle == m_angle && stride == m_stride && names == m_placed)
        return;
    m_angle = angle;
    m_stride = stride;
    m_placed = names;
    for (const QString& label : m_names->categoriesLabels())
        m_names->remove(label);
    m_names->setStartValue(-0.5);
    m_names->setRange(-0.5, static_cast<double>(names.size()) - 0.5);
    // Each name ends a range at its bar's centre, where a label "on value" stands.
    for (qsizetype i = 0; i < names.size(); i += stride)
        m_names->append(names[i], static_cast<double>(i));
    m_names->setLabelsAngle(angle);
}

QStringList BarNames::shownNames() const { return m_names ? m_names->categoriesLabels() : QStringList(); }

}  // namespace logitlab::ui
