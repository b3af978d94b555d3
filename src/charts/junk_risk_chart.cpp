#include "charts/junk_risk_chart.h"

#include "charts/chart_style.h"
#include "engine/stats/statistics.h"

#include <QChart>
#include <QGraphicsScene>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QLogValueAxis>
#include <QPen>
#include <QPointF>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>

namespace logitlab::ui {

namespace {

constexpr std::size_t kMaxErrorBars = 200;
// Qt Charts lays out a scatter series in time that grows faster than its points (1,000 points
// a setting: 3 s; 3,000: a minute): beyond this many a setting, every k-th length's Monte Carlo
// point is drawn (the analytic curve and the CSV keep every length).
constexpr std::size_t kMaxMarkers = 1000;

}  // namespace

// Tableau 10: distinguishable, and readable in greyscale print order.
const QList<QColor>& junkRiskPalette()
{
    static const QList<QColor> palette{QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
                                       QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                                       QColor(0xe3, 0x77, 0xc2), QColor(0x7f, 0x7f, 0x7f), QColor(0xbc, 0xbd, 0x22),
                                       QColor(0x17, 0xbe, 0xcf)};
    return palette;
}

JunkRiskChart::JunkRiskChart(QObject* parent) : QObject(parent), m_chart(new QChart)
{
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->setMargins(QMargins(8, 8, 8, 8));
    m_chart->setTitle(tr("Risk of at least one junk token in an N-token reply<br>"
                         "lines: analytic 1 - (1 - q)^N; points: Monte Carlo with 95% Wilson intervals"));
    setRows({}, true);
}

JunkRiskChart::~JunkRiskChart()
{
    if (!m_chart->scene())
        delete m_chart;
}

void JunkRiskChart::setRows(const std::vector<engine::JunkRiskRow>& rows, bool logLengthAxis, qint64 highlightLength)
{
    m_chart->removeAllSeries();
    // New axes each time: the x axis type changes between linear and log. removeAxis hands
    // ownership back, so the old ones are deleted here.
    const QList<QAbstractAxis*> oldAxes = m_chart->axes();
    for (QAbstractAxis* axis : oldAxes) {
        m_chart->removeAxis(axis);
        delete axis;
    }

    QAbstractAxis* lengthAxis = nullptr;
    double longest = 1.0;
    for (const auto& row : rows)
        longest = std::max(longest, static_cast<double>(row.length));
    if (highlightLength > 0)
        longest = std::max(longest, static_cast<double>(highlightLength));
    // The curve runs over the whole axis: 1..longest log-spaced on a log axis, 0..longest linearly.
    const auto curveLength = [&](int i) {
        const double t = static_cast<double>(i) / (kCurvePoints - 1);
        return logLengthAxis ? std::exp(std::log(longest) * t) : longest * t;
    };
    if (logLengthAxis) {
        auto* axis = new QLogValueAxis;
        axis->setBase(10.0);
        axis->setLabelFormat(QStringLiteral("%g"));
        axis->setMinorTickCount(-1);         // 2..9 between decades
        axis->setRange(1.0, longest * 1.1);  // a little room right of the last point
        lengthAxis = axis;
    } else {
        auto* axis = new QValueAxis;
        setWholeNumberTicks(axis, 0.0, longest);
        lengthAxis = axis;
    }
    lengthAxis->setTitleText(logLengthAxis ? tr("reply length N (tokens, log scale)") : tr("reply length N (tokens)"));
    auto* riskAxis = new QValueAxis;
    riskAxis->setRange(0.0, 1.0);
    riskAxis->setTickCount(6);
    riskAxis->setLabelFormat(QStringLiteral("%.1f"));
    riskAxis->setTitleText(tr("P(at least one junk token)"));
    m_chart->addAxis(lengthAxis, Qt::AlignBottom);
    m_chart->addAxis(riskAxis, Qt::AlignLeft);

    const auto attach = [&](QAbstractSeries* series, bool inLegend) {
        m_chart->addSeries(series);
        series->attachAxis(lengthAxis);
        series->attachAxis(riskAxis);
        if (!inLegend)
            for (QLegendMarker* marker : m_chart->legend()->markers(series))
                marker->setVisible(false);
    };

    // Qt Charts has no error-bar series: each bar is a series of its own, and laying out
    // thousands of series takes minutes (10,000 lengths: 96 s per setting). Bars are drawn while a
    // setting has at most kMaxErrorBars Monte Carlo points; denser charts show the points alone,
    // at most kMaxMarkers of them (the CSV keeps every length and interval).
    std::map<std::string, std::size_t> perSetting;
    for (const auto& row : rows)
        perSetting[row.setting] += row.replies == 0 ? 0 : 1;
    int colourIndex = -1;
    std::string current;
    bool bars = true;
    std::size_t stride = 1;
    std::size_t seen = 0;
    QLineSeries* analytic = nullptr;
    QScatterSeries* points = nullptr;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const engine::JunkRiskRow& row = rows[i];
        const auto x = static_cast<qreal>(row.length);
        if (i == 0 || row.setting != current) {
            current = row.setting;
            bars = perSetting[current] <= kMaxErrorBars;
            stride = (perSetting[current] + kMaxMarkers - 1) / kMaxMarkers;
            seen = 0;
            const QColor colour = junkRiskPalette()[++colourIndex % junkRiskPalette().size()];
            const QString label = QString::fromStdString(row.setting);
            analytic = new QLineSeries;
            analytic->setName(tr("%1 (q = %2)").arg(label).arg(row.qAfter, 0, 'g', 4));
            analytic->setPen(QPen(colour, 2.0));
            points = new QScatterSeries;
            points->setName(tr("%1: Monte Carlo").arg(label));
            points->setColor(colour);
            points->setBorderColor(colour.darker(140));
            points->setMarkerSize(7.0);
            // Dense and smooth: N is continuous in 1 - (1 - q)^N, whatever lengths the table holds.
            QList<QPointF> curve;
            curve.reserve(kCurvePoints);
            for (int k = 0; k < kCurvePoints; ++k) {
                const double n = curveLength(k);
                curve.append(QPointF(n, engine::probabilityAtLeastOnce(row.qAfter, n)));
            }
            analytic->replace(curve);
            attach(analytic, true);
            attach(points, false);  // same colour as its line: the title explains points
        }
        if (row.replies == 0 || seen++ % std::max<std::size_t>(stride, 1) != 0)
            continue;
        points->append(x, row.monteCarlo);
        // Qt Charts has no error-bar series: each bar is a two-point line without a legend entry.
        if (bars && row.high > row.low) {
            auto* bar = new QLineSeries;
            bar->setPen(QPen(points->color(), 1.5));
            bar->append(x, row.low);
            bar->append(x, row.high);
            attach(bar, false);
        }
    }
    if (highlightLength > 0) {
        auto* marker = new QLineSeries;
        marker->setName(tr("N = %1").arg(QLocale().toString(highlightLength)));
        QPen pen(QColor(0x40, 0x40, 0x40), 1.5, Qt::DashLine);
        marker->setPen(pen);
        marker->append(static_cast<qreal>(highlightLength), 0.0);
        marker->append(static_cast<qreal>(highlightLength), 1.0);
        attach(marker, true);
    }
}

}  // namespace logitlab::ui
