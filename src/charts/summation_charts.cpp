#include "charts/summation_charts.h"

#include "charts/category_names.h"
#include "charts/chart_lifetime.h"
#include "charts/chart_style.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QHorizontalBarSeries>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace logitlab::ui {

namespace {

// A range around the values with a little room past the longest bar, ticks on whole numbers.
QValueAxis* countAxis(double low, double high, const QString& title)
{
    auto* axis = new QValueAxis;
    const double pad = std::max(1.0, (high - low) * 0.08);
    setWholeNumberTicks(axis, low < 0 ? low - pad : low, high + pad);
    axis->setTitleText(title);
    return axis;
}

}  // namespace

SummationCharts::SummationCharts(QObject* parent)
    : QObject(parent), m_errors(newRebuiltChart()), m_histogram(newRebuiltChart()), m_spread(newRebuiltChart())
{
    clear();
}

SummationCharts::~SummationCharts()
{
    deleteUnlessInScene(m_errors);
    deleteUnlessInScene(m_histogram);
    deleteUnlessInScene(m_spread);
}

void SummationCharts::clear()
{
    for (QChart* chart : {m_errors, m_histogram, m_spread})
        clearChart(chart);
    m_errors->setTitle(tr("Run to see each order's error in ULPs"));
    m_histogram->setTitle(tr("Run to see where the random orders land"));
    m_spread->setTitle(tr("Run with a spread to see how it grows with N"));
}

void SummationCharts::setSummary(const engine::SummationSummary& summary, const QString& storage,
                                 const QString& accumulator)
{
    clear();
    const QString precision = storage == accumulator ? tr("all in %1").arg(storage)
                                                     : tr("%1 terms, %2 accumulator").arg(storage, accumulator);

    // Errors per method.
    auto* set = new QBarSet(tr("error in ULPs (0 = the exact sum, correctly rounded)"));
    set->setColor(chart_colors::kSurvivor);
    QStringList names;
    double low = 0.0, high = 0.0;
    QStringList overflowed;
    // Last first: a horizontal bar chart fills from the bottom, so the first order ends on top.
    for (auto it = summary.methods.rbegin(); it != summary.methods.rend(); ++it) {
        const auto& row = *it;
        names << QString::fromStdString(row.method);
        const double ulps = row.finite ? static_cast<double>(row.ulps) : 0.0;
        if (!row.finite)
            overflowed << QString::fromStdString(row.method);
        *set << ulps;
        low = std::min(low, ulps);
        high = std::max(high, ulps);
    }
    // Horizontal bars: the orders' names read in full down the left, first order on top.
    auto* bars = new QHorizontalBarSeries;
    bars->append(set);
    bars->setBarWidth(0.7);
    bars->setLabelsVisible(true);
    bars->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    bars->setLabelsFormat(QStringLiteral("@value"));
    bars->setLabelsPrecision(12);
    m_errors->addSeries(bars);
    // Each bar's value beside it while the bars are at least a line of text apart; closer (13
    // orders in a one-column figure) the values would print over each other, and the table and
    // CSV hold them anyway.
    const int rows = static_cast<int>(names.size());
    connect(m_errors, &QChart::plotAreaChanged, bars, [bars, set, rows](const QRectF& plot) {
        const bool room = rows > 0 && plot.height() / rows >= QFontMetricsF(set->labelFont()).height() + 1.0;
        if (bars->isLabelsVisible() != room)
            bars->setLabelsVisible(room);
    });
    auto* methodAxis = new QBarCategoryAxis;
    methodAxis->setCategories(names);
    auto* ulpAxis = countAxis(low, high, tr("error (ULPs of %1)").arg(accumulator));
    m_errors->addAxis(methodAxis, Qt::AlignLeft);
    m_errors->addAxis(ulpAxis, Qt::AlignBottom);
    bars->attachAxis(methodAxis);
    bars->attachAxis(ulpAxis);
    CategoryNames::attach(m_errors, methodAxis);
    QString title = tr("Error of each order against the exact sum, %1; N = %L2").arg(precision).arg(summary.terms);
    if (!overflowed.isEmpty())
        title += tr(" (overflowed: %1)").arg(overflowed.join(QStringLiteral(", ")));
    m_errors->setTitle(title);
    m_errors->legend()->setVisible(false);

    // Histogram of the shuffles.
    if (!summary.histogram.empty()) {
        // Bars drawn as one area over a value axis of ULPs: a category axis shortens each of 40
        // bin labels to one bar's slot ("..." at a figure's size); numbers tick on whole ULPs.
        auto* outline = new QLineSeries;
        double tallest = 0;
        for (const auto& bin : summary.histogram) {
            const double left = static_cast<double>(bin.low) - 0.45;
            const double right = static_cast<double>(bin.high) + 0.45;
            const auto count = static_cast<double>(bin.count);
            outline->append(left, 0.0);
            outline->append(left, count);
            outline->append(right, count);
            outline->append(right, 0.0);
            tallest = std::max(tallest, count);
        }
        auto* histogramBars = new QAreaSeries(outline);
        outline->setParent(bars);
        histogramBars->setName(tr("shuffles"));
        histogramBars->setColor(chart_colors::kRenormalised);
        histogramBars->setBorderColor(chart_colors::kRenormalised);
        m_histogram->addSeries(histogramBars);
        auto* binAxis = new QValueAxis;
        const std::int64_t width = summary.histogram.front().high - summary.histogram.front().low + 1;
        binAxis->setTitleText(width == 1 ? tr("error of the random order (ULPs)")
                                         : tr("error of the random order (ULPs, bins of %1)").arg(width));
        setWholeNumberTicks(binAxis, static_cast<double>(summary.histogram.front().low),
                            static_cast<double>(summary.histogram.back().high), 7, 0.5);
        auto* countsAxis = countAxis(0.0, tallest, tr("shuffles"));
        m_histogram->addAxis(binAxis, Qt::AlignBottom);
        m_histogram->addAxis(countsAxis, Qt::AlignLeft);
        histogramBars->attachAxis(binAxis);
        histogramBars->attachAxis(countsAxis);
        m_histogram->legend()->setVisible(false);
        m_histogram->setTitle(tr("%L1 random orders gave %L2 different results (N = %L3, %4)")
                                  .arg(summary.shuffles.size())
                                  .arg(summary.distinctShuffles)
                                  .arg(summary.terms)
                                  .arg(precision));
    } else {
        m_histogram->setTitle(tr("No shuffles (K = 0)"));
    }

    // Spread against N.
    if (!summary.spread.empty()) {
        auto* line = new QLineSeries;
        line->setName(tr("max - min over the random orders (ULPs)"));
        line->setColor(chart_colors::kCutLine);
        auto* points = new QScatterSeries;
        points->setColor(chart_colors::kCutLine);
        points->setMarkerSize(9);
        double highest = 0.0;
        for (const auto& row : summary.spread) {
            const double spread = static_cast<double>(row.spreadUlps);
            line->append(static_cast<double>(row.n), spread);
            points->append(static_cast<double>(row.n), spread);
            highest = std::max(highest, spread);
        }
        m_spread->addSeries(line);
        m_spread->addSeries(points);
        auto* nAxis = new QLogValueAxis;
        nAxis->setBase(10);
        nAxis->setRange(static_cast<double>(summary.spread.front().n) / 2,
                        static_cast<double>(summary.spread.back().n) * 2);
        nAxis->setLabelFormat(QStringLiteral("%.0e"));
        nAxis->setTitleText(tr("N (terms)"));
        auto* yAxis = countAxis(0.0, highest, tr("spread (ULPs)"));
        m_spread->addAxis(nAxis, Qt::AlignBottom);
        m_spread->addAxis(yAxis, Qt::AlignLeft);
        for (QAbstractSeries* s : {static_cast<QAbstractSeries*>(line), static_cast<QAbstractSeries*>(points)}) {
            s->attachAxis(nAxis);
            s->attachAxis(yAxis);
        }
        m_spread->legend()->setVisible(false);
        m_spread->setTitle(tr("How far random orders spread as N grows (%1)").arg(precision));
    } else {
        m_spread->setTitle(tr("No spread asked for (or the terms are a fixed list)"));
    }
}

}  // namespace logitlab::ui
