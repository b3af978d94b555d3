#include "charts/seed_sweep_charts.h"

#include "app/kinds/seed_sweep_job.h"
#include "charts/bar_names.h"
#include "charts/chart_lifetime.h"
#include "charts/chart_style.h"
#include "charts/token_display.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QChart>
#include <QGraphicsScene>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace logitlab::ui {

namespace {

const QColor kObserved(0x1f, 0x77, 0xb4);
const QColor kExpected(0xff, 0x7f, 0x0e);

}  // namespace

SeedSweepCharts::SeedSweepCharts(QObject* parent)
    : QObject(parent), m_pValues(newRebuiltChart()), m_spread(newRebuiltChart()), m_counts(newRebuiltChart())
{
}

SeedSweepCharts::~SeedSweepCharts()
{
    deleteUnlessInScene(m_pValues);
    deleteUnlessInScene(m_spread);
    deleteUnlessInScene(m_counts);
}

void SeedSweepCharts::setSummary(const engine::SeedSweepSummary& summary, const QStringList& names, std::uint64_t seeds,
                                 std::uint64_t drawsPerSeed)
{
    // p-value histogram.
    clearChart(m_pValues);
    auto* bars = new QBarSet(tr("seeds per p-value bin"));
    bars->setColor(kObserved);
    QStringList bins;
    const auto binCount = static_cast<int>(summary.pValueHistogram.size());
    std::uint64_t tallest = 0;
    for (int b = 0; b < binCount; ++b) {
        *bars << static_cast<double>(summary.pValueHistogram[static_cast<std::size_t>(b)]);
        tallest = std::max(tallest, summary.pValueHistogram[static_cast<std::size_t>(b)]);
        // Short labels (".05", not "0.05") so twenty of them fit a narrow chart.
        QString label = QString::number(double(b) / binCount, 'g', 2);
        bins << (label.startsWith(QLatin1String("0.")) ? label.mid(1) : label);
    }
    auto* histogram = new QBarSeries;
    histogram->append(bars);
    histogram->setBarWidth(0.95);
    auto* flat = new QLineSeries;
    flat->setName(tr("expected if correct (flat)"));
    flat->setColor(kExpected);
    const double level = double(seeds) / binCount;
    flat->append(-0.5, level);
    flat->append(binCount - 0.5, level);
    m_pValues->addSeries(histogram);
    m_pValues->addSeries(flat);
    auto* binAxis = new QBarCategoryAxis;
    binAxis->setCategories(bins);
    binAxis->setTitleText(tr("chi-square p-value (bin start)"));
    auto* lineAxis = new QValueAxis;  // the flat line needs a numeric x axis aligned with the bars
    lineAxis->setRange(-0.5, binCount - 0.5);
    lineAxis->setVisible(false);
    auto* seedAxis = new QValueAxis;
    seedAxis->setTitleText(tr("seeds"));
    // Whole seeds: one seed's axis read "0 0 1 1" with Qt's nice numbers.
    setWholeNumberTicks(seedAxis, 0.0, std::max(level * 1.6, double(tallest) * 1.1), 6);
    m_pValues->addAxis(binAxis, Qt::AlignBottom);
    m_pValues->addAxis(lineAxis, Qt::AlignTop);
    m_pValues->addAxis(seedAxis, Qt::AlignLeft);
    histogram->attachAxis(binAxis);
    histogram->attachAxis(seedAxis);
    flat->attachAxis(lineAxis);
    flat->attachAxis(seedAxis);
    // "1 seed", not "1 seeds" (the lesson's sweep is one seed of 1,000 draws).
    const QString seedCount = seeds == 1 ? tr("1 seed") : tr("%1 seeds").arg(seeds);
    if (!summary.tested())  // one outcome: 0 degrees of freedom, every p-value would read 1
        m_pValues->setTitle(tr("%1 x %2 draws: no test (%3)")
                                .arg(seedCount)
                                .arg(drawsPerSeed)
                                .arg(QString::fromStdString(summary.noTest)));
    else
        m_pValues->setTitle(tr("%1 x %2 draws: KS D = %3, p = %4, %5")
                                .arg(seedCount)
                                .arg(drawsPerSeed)
                                .arg(summary.chiSquareUniformity.statistic, 0, 'f', 4)
                                .arg(summary.chiSquareUniformity.pValue, 0, 'g', 3)
                                .arg(app::seedSweepConsistent(summary)
                                         ? tr("consistent with a correct sampler")
                                         : tr("not uniform: the sampler does not match its probabilities")));

    const int shown = std::min<int>(kMaxTokensShown, static_cast<int>(summary.tokens.size()));
    const QString more = shown < static_cast<int>(summary.tokens.size())
                             ? tr(" (the %1 most probable of %2 tokens)").arg(shown).arg(summary.tokens.size())
                             : QString();
    const QStringList shownNames = names.mid(0, shown);

    // Per-token spread, as standardised deviations: (count - n p) / sqrt(n p (1 - p)), the
    // binomial standard deviation, so a rare and a common token share one scale. A correct
    // sampler keeps the boxes around 0 and nearly all whiskers inside +-3.
    clearChart(m_spread);
    auto* boxes = new QBoxPlotSeries;
    boxes->setName(tr("per-seed deviation (min, quartiles, max)"));
    boxes->setBrush(kObserved.lighter(150));
    double reach = 3.0;
    for (int t = 0; t < shown; ++t) {
        const auto& s = summary.tokens[static_cast<std::size_t>(t)];
        const double n = double(drawsPerSeed);
        const double mean = s.expected * n;
        const double sd = std::sqrt(n * s.expected * (1.0 - s.expected));
        const auto z = [&](double count) { return sd > 0.0 ? (count - mean) / sd : 0.0; };
        boxes->append(new QBoxSet(z(s.min), z(s.q1), z(s.median), z(s.q3), z(s.max), shownNames.value(t)));
        reach = std::max({reach, std::abs(z(s.min)), std::abs(z(s.max))});
    }
    auto* zero = new QLineSeries;
    zero->setName(tr("expected (0) and +-2 sd"));
    zero->setColor(kExpected);
    auto* plus = new QLineSeries;
    auto* minus = new QLineSeries;
    for (QLineSeries* line : {plus, minus}) {
        QPen pen(kExpected);
        pen.setStyle(Qt::DashLine);
        line->setPen(pen);
    }
    for (const auto& [line, level] : {std::pair{zero, 0.0}, std::pair{plus, 2.0}, std::pair{minus, -2.0}}) {
        line->append(-0.5, level);
        line->append(shown - 0.5, level);
    }
    m_spread->addSeries(boxes);
    for (QLineSeries* line : {zero, plus, minus})
        m_spread->addSeries(line);
    auto* tokenAxis = new QBarCategoryAxis;
    tokenAxis->setCategories(chartLabels(shownNames));
    tokenAxis->setTitleText(tr("token"));
    auto* lineAxis2 = new QValueAxis;
    lineAxis2->setRange(-0.5, shown - 0.5);
    lineAxis2->setVisible(false);
    auto* zAxis = new QValueAxis;
    zAxis->setRange(-std::ceil(reach * 1.1), std::ceil(reach * 1.1));
    zAxis->setTitleText(tr("(count - expected) / sd"));
    zAxis->applyNiceNumbers();
    m_spread->addAxis(tokenAxis, Qt::AlignBottom);
    m_spread->addAxis(lineAxis2, Qt::AlignTop);
    m_spread->addAxis(zAxis, Qt::AlignLeft);
    boxes->attachAxis(tokenAxis);
    boxes->attachAxis(zAxis);
    for (QLineSeries* line : {zero, plus, minus}) {
        line->attachAxis(lineAxis2);
        line->attachAxis(zAxis);
    }
    // One legend entry for the three reference lines.
    m_spread->legend()->markers(plus).first()->setVisible(false);
    m_spread->legend()->markers(minus).first()->setVisible(false);
    m_spread->setTitle(tr("How much each token's count varies by seed, in binomial standard deviations%1").arg(more));
    BarNames::attach(m_spread, tokenAxis);

    // Pooled counts against expected.
    clearChart(m_counts);
    auto* observed = new QBarSet(tr("drawn (all seeds)"));
    observed->setColor(kObserved);
    auto* expected = new QBarSet(tr("expected"));
    expected->setColor(kExpected);
    double highest = 0;
    for (int t = 0; t < shown; ++t) {
        const auto& s = summary.tokens[static_cast<std::size_t>(t)];
        *observed << double(s.pooled);
        *expected << s.expectedPooled;
        highest = std::max({highest, double(s.pooled), s.expectedPooled});
    }
    auto* pair = new QBarSeries;
    pair->append(observed);
    pair->append(expected);
    m_counts->addSeries(pair);
    auto* countTokens = new QBarCategoryAxis;
    countTokens->setCategories(chartLabels(shownNames));
    countTokens->setTitleText(tr("token"));
    auto* pooledAxis = new QValueAxis;
    pooledAxis->setTitleText(tr("draws"));
    setWholeNumberTicks(pooledAxis, 0.0, highest * 1.1 + 1, 6);  // a few draws: no "0 0 1 1"
    m_counts->addAxis(countTokens, Qt::AlignBottom);
    m_counts->addAxis(pooledAxis, Qt::AlignLeft);
    pair->attachAxis(countTokens);
    BarNames::attach(m_counts, countTokens);
    pair->attachAxis(pooledAxis);
    if (!summary.tested() || !summary.pooledChiSquare.tested)  // a p-value of 1 that tests nothing: not shown
        m_counts->setTitle(
            tr("Counts against expected: no chi-square test (%1)%2").arg(QString::fromStdString(summary.noTest), more));
    else
        m_counts->setTitle(tr("Counts against expected: pooled chi-square = %1 (%2 dof), p = %3%4")
                               .arg(summary.pooledChiSquare.statistic, 0, 'f', 2)
                               .arg(summary.pooledChiSquare.degreesOfFreedom)
                               .arg(summary.pooledChiSquare.pValue, 0, 'g', 3)
                               .arg(more));
}

}  // namespace logitlab::ui
