#include "charts/sweep_chart.h"

#include "charts/chart_style.h"

#include <QApplication>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

#include <cmath>

namespace logitlab::ui {

namespace {
constexpr double kFloor = 0.05;  // the y axes' room below zero, as a share of their range
}  // namespace

namespace {

// Tableau-like colours that stay apart on a projector and in print.
const QList<QColor> kTokenColors{{0x1f, 0x77, 0xb4}, {0xff, 0x7f, 0x0e}, {0x2c, 0xa0, 0x2c},
                                 {0x94, 0x67, 0xbd}, {0x8c, 0x56, 0x4b}, {0xe3, 0x77, 0xc2}};

}  // namespace

SweepChart::SweepChart(QObject* parent)
    : QObject(parent), m_chart(new QChart), m_temperature(new QValueAxis), m_probability(new QValueAxis),
      m_count(new QValueAxis), m_survivors(new QLineSeries), m_marker(new QLineSeries)
{
    m_chart->addAxis(m_temperature, Qt::AlignBottom);
    m_chart->addAxis(m_probability, Qt::AlignLeft);
    m_chart->addAxis(m_count, Qt::AlignRight);
    m_temperature->setTitleText(tr("temperature T"));
    m_temperature->setRange(0.0, 3.0);
    m_temperature->setTickCount(7);
    m_temperature->setLabelFormat(QStringLiteral("%.1f"));
    m_probability->setTitleText(tr("probability at T"));
    // Both y axes start a twentieth below zero: their "0" labels then sit above the T axis's
    // first and last labels instead of over them (a one-column figure's corners).
    m_probability->setRange(-kFloor, 1.0);
    m_probability->setTickType(QValueAxis::TicksDynamic);
    m_probability->setTickAnchor(0.0);
    m_probability->setTickInterval(0.2);
    m_probability->setLabelFormat(QStringLiteral("%.1f"));
    m_count->setTitleText(tr("survivors"));
    m_count->setLabelFormat(QStringLiteral("%d"));

    m_chart->addSeries(m_survivors);
    m_survivors->attachAxis(m_temperature);
    m_survivors->attachAxis(m_count);
    m_survivors->setPen(QPen(QApplication::palette().color(QPalette::WindowText), 2.5));
    m_chart->addSeries(m_marker);
    m_marker->attachAxis(m_temperature);
    m_marker->attachAxis(m_probability);
    m_marker->setPen(QPen(chart_colors::kCutLine, 1.5, Qt::DashLine));
    m_marker->setName(tr("current T"));
    styleChart(m_chart, QApplication::palette());
}

SweepChart::~SweepChart()
{
    if (!m_chart->scene())
        delete m_chart;
}

void SweepChart::setSweep(const std::vector<engine::SweepPoint>& points, const QStringList& names,
                          const QString& filters)
{
    m_points = points;
    // Series count changes with the vocabulary; adding and removing a handful is cheap and
    // happens only when the logits change, never while T is dragged.
    while (m_tokens.size() > names.size()) {
        QLineSeries* s = m_tokens.takeLast();
        m_chart->removeSeries(s);
        delete s;
    }
    while (m_tokens.size() < names.size()) {
        auto* s = new QLineSeries;
        s->setPen(QPen(kTokenColors[m_tokens.size() % kTokenColors.size()], 2.0));
        m_chart->addSeries(s);
        s->attachAxis(m_temperature);
        s->attachAxis(m_probability);
        m_tokens << s;
    }
    std::size_t most = 1;
    QList<QPointF> steps;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto& p = points[i];
        const double y = static_cast<double>(p.survivors);
        // A step line: the count holds until the next temperature.
        if (i > 0)
            steps << QPointF(p.temperature, static_cast<double>(points[i - 1].survivors));
        steps << QPointF(p.temperature, y);
        most = std::max(most, p.survivors);
    }
    m_survivors->replace(steps);
    m_survivors->setName(tr("survivors of %1").arg(filters));
    for (int k = 0; k < m_tokens.size(); ++k) {
        QList<QPointF> curve;
        curve.reserve(static_cast<qsizetype>(points.size()));
        for (const auto& p : points)
            curve << QPointF(p.temperature, p.tracked[static_cast<std::size_t>(k)]);
        m_tokens[k]->replace(curve);
        m_tokens[k]->setName(names[k]);
    }
    // Integer ticks on the count axis when the counts are small.
    double top = static_cast<double>(most) + 1.0;
    if (top > 10.0)
        top = std::ceil(top / 5.0) * 5.0;  // six ticks on whole numbers
    setWholeNumberTicks(m_count, 0.0, top, top <= 10.0 ? static_cast<int>(top) + 1 : 6, kFloor * top);
    m_chart->setTitle(tr("Temperature sweep: probability of the top tokens, and survivors of %1").arg(filters));
    styleChart(m_chart, QApplication::palette());
}

void SweepChart::setCurrentTemperature(double temperature)
{
    m_marker->replace(QList<QPointF>{{temperature, 0.0}, {temperature, 1.0}});
}

int SweepChart::survivorsAt(double temperature) const
{
    int best = -1;
    double distance = 1e9;
    for (const auto& p : m_points)
        if (std::abs(p.temperature - temperature) < distance) {
            distance = std::abs(p.temperature - temperature);
            best = static_cast<int>(p.survivors);
        }
    return best;
}

}  // namespace logitlab::ui
