#include "charts/reply_junk_risk_chart.h"

#include "charts/chart_style.h"
#include "charts/junk_risk_chart.h"

#include <QChart>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace logitlab::ui {

namespace {

QChart* newChart(const QString& title)
{
    auto* chart = new QChart;
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setMargins(QMargins(8, 8, 8, 8));
    chart->setTitle(title);
    return chart;
}

void clear(QChart* chart)
{
    chart->removeAllSeries();
    const QList<QAbstractAxis*> oldAxes = chart->axes();
    for (QAbstractAxis* axis : oldAxes) {
        chart->removeAxis(axis);
        delete axis;
    }
}

void attach(QChart* chart, QAbstractSeries* series, QAbstractAxis* x, QAbstractAxis* y, bool inLegend)
{
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
    if (!inLegend)
        for (QLegendMarker* marker : chart->legend()->markers(series))
            marker->setVisible(false);
}

QValueAxis* stepAxis(double last)
{
    auto* axis = new QValueAxis;
    setWholeNumberTicks(axis, 1.0, std::max(2.0, last));
    axis->setTitleText(QObject::tr("step n of the reply"));
    return axis;
}

}  // namespace

ReplyJunkRiskChart::ReplyJunkRiskChart(QObject* parent)
    : QObject(parent),
      m_risk(newChart(tr("Risk of at least one junk token in the reply's first n tokens<br>"
                         "lines: analytic 1 - prod (1 - q_t); points: Monte Carlo, dotted: 95% Wilson interval"))),
      m_q(newChart(tr("q_t: the chance that step t's token is junk, after each setting's chain")))
{
    setRows({});
}

ReplyJunkRiskChart::~ReplyJunkRiskChart()
{
    if (!m_risk->scene())
        delete m_risk;
    if (!m_q->scene())
        delete m_q;
}

void ReplyJunkRiskChart::setRows(const std::vector<engine::ReplyJunkRiskRow>& rows)
{
    clear(m_risk);
    clear(m_q);
    double last = 1.0;
    double smallest = std::numeric_limits<double>::infinity();  // positive q
    double largest = 0.0;
    for (const auto& row : rows) {
        last = std::max(last, static_cast<double>(row.step));
        if (row.qAfter > 0.0)
            smallest = std::min(smallest, row.qAfter);
        largest = std::max(largest, row.qAfter);
    }
    // A log axis only when it shows something a linear one hides: q spanning over two decades.
    m_qLog = largest > 0.0 && largest / smallest > 100.0;

    QValueAxis* riskX = stepAxis(last);
    auto* riskY = new QValueAxis;
    riskY->setRange(0.0, 1.0);
    riskY->setTickCount(6);
    riskY->setLabelFormat(QStringLiteral("%.1f"));
    riskY->setTitleText(tr("P(at least one junk token in the first n)"));
    m_risk->addAxis(riskX, Qt::AlignBottom);
    m_risk->addAxis(riskY, Qt::AlignLeft);

    QValueAxis* qX = stepAxis(last);
    QAbstractAxis* qY = nullptr;
    if (m_qLog) {
        auto* axis = new QLogValueAxis;
        axis->setBase(10.0);
        axis->setLabelFormat(QStringLiteral("%g"));
        axis->setMinorTickCount(-1);
        axis->setRange(smallest / 2.0, std::min(1.0, largest * 2.0));
        axis->setTitleText(tr("q_t (log scale; steps with q = 0 not drawn)"));
        qY = axis;
    } else {
        auto* axis = new QValueAxis;
        axis->setRange(0.0, largest > 0.0 ? largest * 1.1 : 1.0);
        axis->setLabelFormat(QStringLiteral("%g"));
        axis->applyNiceNumbers();  // 0.1 steps rather than 0.433051
        axis->setTitleText(tr("q_t"));
        qY = axis;
    }
    m_q->addAxis(qX, Qt::AlignBottom);
    m_q->addAxis(qY, Qt::AlignLeft);

    // Qt Charts lays out markers in time that grows faster than their count (a reply of 100,000
    // steps took minutes): beyond kMaxMarkers steps a setting, every k-th step's Monte Carlo
    // point and interval are drawn and q's line has no markers (the CSV keeps every step).
    constexpr std::size_t kMaxMarkers = 1000;
    const std::size_t settings = std::max<std::size_t>(
        1, static_cast<std::size_t>(
               std::count_if(rows.begin(), rows.end(), [](const engine::ReplyJunkRiskRow& r) { return r.step == 1; })));
    const std::size_t stride = (rows.size() / settings + kMaxMarkers - 1) / kMaxMarkers;
    std::size_t seen = 0;
    int colourIndex = -1;
    QLineSeries* analytic = nullptr;
    QScatterSeries* points = nullptr;
    QLineSeries* low = nullptr;
    QLineSeries* high = nullptr;
    QLineSeries* q = nullptr;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const engine::ReplyJunkRiskRow& row = rows[i];
        // Steps restart at 1 for each setting (labels may repeat).
        if (row.step == 1 || i == 0) {
            const QColor colour = junkRiskPalette()[++colourIndex % junkRiskPalette().size()];
            const QString label = QString::fromStdString(row.setting);
            analytic = new QLineSeries;
            analytic->setName(label);
            analytic->setPen(QPen(colour, 2.0));
            points = new QScatterSeries;
            points->setColor(colour);
            points->setBorderColor(colour.darker(140));
            points->setMarkerSize(5.0);
            QPen dotted(colour, 1.0, Qt::DotLine);
            low = new QLineSeries;
            low->setPen(dotted);
            high = new QLineSeries;
            high->setPen(dotted);
            q = new QLineSeries;
            q->setName(label);
            q->setPen(QPen(colour, 1.5));
            q->setPointsVisible(stride <= 1);
            seen = 0;
            attach(m_risk, analytic, riskX, riskY, true);
            attach(m_risk, points, riskX, riskY, false);
            attach(m_risk, low, riskX, riskY, false);
            attach(m_risk, high, riskX, riskY, false);
            attach(m_q, q, qX, qY, true);
        }
        const auto x = static_cast<qreal>(row.step);
        analytic->append(x, row.analytic);
        if (row.replies && seen++ % std::max<std::size_t>(stride, 1) == 0) {
            points->append(x, row.monteCarlo);
            low->append(x, row.low);
            high->append(x, row.high);
        }
        if (!m_qLog || row.qAfter > 0.0)
            q->append(x, row.qAfter);
    }
}

}  // namespace logitlab::ui
