#include "charts/sequence_sweep_charts.h"

#include "charts/chart_lifetime.h"
#include "charts/chart_style.h"

#include <QAreaSeries>
#include <QChart>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

#include <algorithm>

namespace logitlab::ui {

namespace {

const QColor kObserved(0x1f, 0x77, 0xb4);
const QColor kReference(0xff, 0x7f, 0x0e);

QValueAxis* countAxis(const QString& title, double max)
{
    auto* axis = new QValueAxis;
    axis->setTitleText(title);
    setWholeNumberTicks(axis, 0.0, std::max(1.0, max), 6);
    return axis;
}

}  // namespace

SequenceSweepCharts::SequenceSweepCharts(QObject* parent)
    : QObject(parent), m_distinct(newRebuiltChart()), m_firstDifference(newRebuiltChart())
{
}

SequenceSweepCharts::~SequenceSweepCharts()
{
    deleteUnlessInScene(m_distinct);
    deleteUnlessInScene(m_firstDifference);
}

void SequenceSweepCharts::setCensus(const engine::ReplyCensus& census, std::size_t steps)
{
    const std::size_t seeds = census.distinctAfter.size();
    clearChart(m_distinct);
    auto* curve = new QLineSeries;
    curve->setName(tr("distinct replies among the first seeds"));
    curve->setColor(kObserved);
    const std::size_t stride = std::max<std::size_t>(1, (seeds + kMaxCurvePoints - 1) / kMaxCurvePoints);
    for (std::size_t k = 0; k < seeds; k += stride)
        curve->append(double(k + 1), double(census.distinctAfter[k]));
    if (seeds > 0 && (seeds - 1) % stride != 0)
        curve->append(double(seeds), double(census.distinctAfter.back()));
    auto* diagonal = new QLineSeries;
    diagonal->setName(tr("every seed a new reply"));
    diagonal->setPen(QPen(kReference, 1, Qt::DashLine));
    diagonal->append(1, 1);
    diagonal->append(double(std::max<std::size_t>(seeds, 1)), double(std::max<std::size_t>(seeds, 1)));
    m_distinct->addSeries(diagonal);
    m_distinct->addSeries(curve);
    auto* seedAxis = new QValueAxis;
    seedAxis->setTitleText(tr("seeds"));
    setWholeNumberTicks(seedAxis, 1.0, double(std::max<std::size_t>(seeds, 2)), 6);
    const double distinct = census.replies.size();
    auto* distinctAxis = countAxis(tr("distinct replies"), distinct * 1.1);
    m_distinct->addAxis(seedAxis, Qt::AlignBottom);
    m_distinct->addAxis(distinctAxis, Qt::AlignLeft);
    for (auto* series : {curve, diagonal}) {
        series->attachAxis(seedAxis);
        series->attachAxis(distinctAxis);
    }
    // The diagonal climbs far above a flat curve: show it only as far as the axis reaches.
    distinctAxis->setRange(0, std::max(1.0, distinct * 1.1));
    distinctAxis->applyNiceNumbers();
    m_distinct->setTitle(tr("%1 distinct replies from %2 seeds").arg(census.replies.size()).arg(seeds));

    // First-difference histogram as filled bars on a numeric step axis (a category axis cannot
    // label thousands of steps).
    clearChart(m_firstDifference);
    auto* upper = new QLineSeries;
    std::uint64_t tallest = 0;
    for (std::size_t i = 0; i < census.firstDifferenceHistogram.size(); ++i) {
        const double count = double(census.firstDifferenceHistogram[i]);
        tallest = std::max(tallest, census.firstDifferenceHistogram[i]);
        upper->append(double(i) - 0.45, 0);
        upper->append(double(i) - 0.45, count);
        upper->append(double(i) + 0.45, count);
        upper->append(double(i) + 0.45, 0);
    }
    auto* bars = new QAreaSeries(upper);
    upper->setParent(bars);  // QAreaSeries does not own the line it fills under
    bars->setName(tr("seeds whose reply first differs here"));
    bars->setColor(kObserved);
    bars->setBorderColor(kObserved);
    m_firstDifference->addSeries(bars);
    auto* stepAxis = new QValueAxis;
    stepAxis->setTitleText(tr("step (0-based) of the first difference from the most common reply"));
    // Bars centred on whole steps, ticks on them.
    setWholeNumberTicks(stepAxis, 0.0, double(std::max<std::size_t>(steps, 1)) - 1.0, 7, 0.5);
    auto* seedCountAxis = countAxis(tr("seeds"), double(tallest) * 1.1);
    m_firstDifference->addAxis(stepAxis, Qt::AlignBottom);
    m_firstDifference->addAxis(seedCountAxis, Qt::AlignLeft);
    bars->attachAxis(stepAxis);
    bars->attachAxis(seedCountAxis);
    const std::size_t same = census.replies.empty() ? 0 : census.replies.front().seeds.size();
    m_firstDifference->setTitle(
        tr("%1 of %2 seeds gave the most common reply; the others first differ at").arg(same).arg(seeds));
}

}  // namespace logitlab::ui
