#include "charts/draw_chart.h"

#include "charts/chart_style.h"
#include "charts/token_display.h"

#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QValueAxis>

#include <algorithm>

namespace logitlab::ui {

DrawChart::DrawChart(QObject* parent)
    : QObject(parent), m_chart(new QChart), m_series(new QBarSeries), m_observed(new QBarSet(tr("drawn"))),
      m_expected(new QBarSet(tr("expected: N × renormalised p"))), m_tokens(new QBarCategoryAxis),
      m_count(new QValueAxis)
{
    m_observed->setColor(chart_colors::kSurvivor);
    m_observed->setBorderColor(chart_colors::kSurvivor.darker(130));
    m_expected->setColor(chart_colors::kRenormalised);
    m_expected->setBorderColor(chart_colors::kRenormalised.darker(130));
    m_series->append(m_observed);
    m_series->append(m_expected);
    m_series->setBarWidth(0.8);
    m_chart->addSeries(m_series);
    m_chart->addAxis(m_tokens, Qt::AlignBottom);
    m_chart->addAxis(m_count, Qt::AlignLeft);
    m_series->attachAxis(m_tokens);
    m_series->attachAxis(m_count);
    m_count->setTitleText(tr("count"));
    m_count->setLabelFormat(QStringLiteral("%d"));
    m_tokens->setTitleText(tr("survivor"));
    styleChart(m_chart, QApplication::palette());
    clear(tr("Press Draw to sample from the survivors."));
}

DrawChart::~DrawChart()
{
    if (!m_chart->scene())
        delete m_chart;
}

void DrawChart::setResult(const engine::CandidateList& list, const engine::DrawCounts& counts, const QStringList& names,
                          const QString& caption, const QString& test)
{
    const int n = static_cast<int>(list.size());
    const int shown = n > kTopBars + 1 ? kTopBars : n;
    QList<qreal> observed;
    QList<qreal> expected;
    QStringList categories;
    const double draws = static_cast<double>(counts.draws);
    double restObserved = draws;
    double restExpected = draws;
    for (int i = 0; i < shown; ++i) {
        const double o = static_cast<double>(counts.counts[static_cast<std::size_t>(i)]);
        const double e = draws * list[static_cast<std::size_t>(i)].p;
        observed << o;
        expected << e;
        restObserved -= o;
        restExpected -= e;
        categories << names[i];
    }
    if (shown < n) {
        observed << restObserved;
        expected << std::max(0.0, restExpected);
        categories << tr("other survivors (%L1)").arg(n - shown);
    }
    m_observed->remove(0, m_observed->count());
    m_observed->append(observed);
    m_expected->remove(0, m_expected->count());
    m_expected->append(expected);
    m_tokens->setCategories(chartLabels(categories));
    double top = 1.0;
    for (int i = 0; i < observed.size(); ++i)
        top = std::max({top, observed[i], expected[i]});
    setWholeNumberTicks(m_count, 0.0, top * 1.1);  // the labels are counts
    // Two lines: the settings, then the test (one line was elided on a 1024-pixel window).
    m_chart->setTitle(tr("%1<br>drawn vs expected (%2)").arg(caption.toHtmlEscaped(), test.toHtmlEscaped()));
}

void DrawChart::clear(const QString& message)
{
    // Every slider step on the Explorer clears the draws again: an empty chart that already says
    // so is left alone (clearing an empty axis and setting the same title relayout the chart).
    if (m_tokens->count() == 0 && m_observed->count() == 0 && m_chart->title() == message)
        return;
    m_observed->remove(0, m_observed->count());
    m_expected->remove(0, m_expected->count());
    m_tokens->clear();
    setWholeNumberTicks(m_count, 0.0, 1.0);
    m_chart->setTitle(message);
}

void DrawChart::setValuesOnBars(bool on)
{
    m_series->setLabelsVisible(on);
    m_series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    m_series->setLabelsPrecision(7);  // counts up to 10^7 in full
    m_series->setLabelsFormat(QStringLiteral("@value"));
}

}  // namespace logitlab::ui
