#include "charts/loop_charts.h"

#include "charts/bar_names.h"
#include "charts/chart_style.h"
#include "charts/token_display.h"

#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace logitlab::ui {

namespace {

const QList<QColor> kRunColours{chart_colors::kSurvivor, chart_colors::kRenormalised};

void clearChart(QChart* chart)
{
    chart->removeAllSeries();
    const QList<QAbstractAxis*> oldAxes = chart->axes();
    for (QAbstractAxis* axis : oldAxes) {
        chart->removeAxis(axis);
        delete axis;
    }
}

}  // namespace

LoopStepsChart::LoopStepsChart(QObject* parent) : QObject(parent), m_chart(new QChart)
{
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    styleChart(m_chart, QApplication::palette());
    setTracks({}, std::nullopt);
}

LoopStepsChart::~LoopStepsChart()
{
    // The mark is the chart's only while a divergence is shown.
    if (!m_chart->series().contains(m_mark))
        delete m_mark;
    if (!m_chart->scene())
        delete m_chart;
}

namespace {

// At most about `limit` points: above that, each bucket of steps keeps its lowest and highest
// point in step order, so the line looks the same at chart width and a 4,096-step run paints in
// a few milliseconds rather than hundreds (the Loop page's 50 ms budget for the UI thread).
QList<QPointF> decimated(const QList<QPointF>& points, qsizetype limit)
{
    if (points.size() <= limit)
        return points;
    const qsizetype bucket = (points.size() + limit / 2 - 1) / (limit / 2);
    QList<QPointF> out;
    out.reserve(limit + 2);
    for (qsizetype start = 0; start < points.size(); start += bucket) {
        const qsizetype end = std::min(points.size(), start + bucket);
        qsizetype low = start;
        qsizetype high = start;
        for (qsizetype i = start + 1; i < end; ++i) {
            if (points[i].y() < points[low].y())
                low = i;
            if (points[i].y() > points[high].y())
                high = i;
        }
        out.append(points[std::min(low, high)]);
        if (low != high)
            out.append(points[std::max(low, high)]);
    }
    return out;
}

}  // namespace

std::size_t loopMeanWindow(std::size_t steps)
{
    return steps <= kRawLoopSteps ? 1 : std::max<std::size_t>(5, (steps + 49) / 50);
}

QList<QPointF> loopStepPoints(const std::vector<engine::LoopStep>& steps)
{
    // Each step's p, or past kRawLoopSteps the mean of the last `window` steps' (a trailing
    // window, the first steps over what they have): hundreds of raw steps are a sawtooth nobody
    // can read.
    const std::size_t window = loopMeanWindow(steps.size());
    QList<QPointF> points;
    points.reserve(static_cast<qsizetype>(steps.size()));
    double sum = 0.0;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        sum += steps[i].probability;
        if (i >= window)
            sum -= steps[i - window].probability;
        const auto count = static_cast<double>(std::min(i + 1, window));
        points.append(QPointF(static_cast<double>(steps[i].index), sum / count));
    }
    return points;
}

void LoopStepsChart::setTracks(const std::vector<Track>& tracks, std::optional<std::size_t> divergence)
{
    // The axes and series stay, their points are replaced: building the chart anew on every
    // refresh of a growing run cost the Loop page's UI thread tens of ms.
    if (!m_x) {
        clearChart(m_chart);
        m_x = new QValueAxis;
        m_y = new QValueAxis;
        m_x->setTitleText(tr("step"));
        m_x->setLabelFormat(QStringLiteral("%d"));
        m_y->setTitleText(tr("p of the chosen token (after the chain)"));
        m_y->setRange(0.0, 1.0);
        m_chart->addAxis(m_x, Qt::AlignBottom);
        m_chart->addAxis(m_y, Qt::AlignLeft);
        m_mark = new QLineSeries;
        QPen pen(chart_colors::kCutLine);
        pen.setStyle(Qt::DashLine);
        pen.setWidthF(1.5);
        m_mark->setPen(pen);
    }
    while (m_lines.size() > tracks.size()) {
        m_chart->removeSeries(m_lines.back());
        delete m_lines.back();
        m_lines.pop_back();
    }
    // The mark is drawn last, above the lines: it leaves the chart while lines are added.
    const bool marked = m_chart->series().contains(m_mark);
    if (marked && m_lines.size() < tracks.size())
        m_chart->removeSeries(m_mark);
    std::size_t longest = 1;
    for (std::size_t t = 0; t < tracks.size(); ++t) {
        if (t == m_lines.size()) {
            auto* line = new QLineSeries;
            QPen pen(kRunColours[static_cast<qsizetype>(t % 2)]);
            pen.setWidthF(1.5);
            line->setPen(pen);
            m_chart->addSeries(line);
            line->attachAxis(m_x);
            line->attachAxis(m_y);
            m_lines.push_back(line);
        }
        const auto& steps = *tracks[t].steps;
        longest = std::max(longest, steps.size());
        const std::size_t window = loopMeanWindow(steps.size());
        m_lines[t]->setName(window > 1 ? tr("%1 (mean of the last %2 steps)").arg(tracks[t].label).arg(window)
                                       : tracks[t].label);
        m_lines[t]->replace(decimated(loopStepPoints(steps), m_pointLimit));
    }
    if (divergence) {
        m_mark->setName(tr("first divergent step: %1").arg(*divergence));
        m_mark->replace(
            {QPointF(static_cast<double>(*divergence), 0.0), QPointF(static_cast<double>(*divergence), 1.0)});
        if (!m_chart->series().contains(m_mark)) {
            m_chart->addSeries(m_mark);
            m_mark->attachAxis(m_x);
            m_mark->attachAxis(m_y);
        }
    } else if (m_chart->series().contains(m_mark)) {
        m_chart->removeSeries(m_mark);
    }
    // Steps are whole numbers: ticks 0, 10, 20, 30, 40 rather than 0, 9.75 (shown "9"), ...
    setWholeNumberTicks(m_x, 0.0, static_cast<double>(std::max<std::size_t>(longest - 1, 1)), 6);
    m_chart->setTitle(tracks.empty() ? tr("Press Step or Run to generate") : tr("p of each chosen token"));
    m_chart->legend()->setVisible(!tracks.empty());
}

LoopStepChart::LoopStepChart(QObject* parent) : QObject(parent), m_chart(new QChart)
{
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    styleChart(m_chart, QApplication::palette());
    clear(tr("Press Step to see the next-token distribution"));
}

LoopStepChart::~LoopStepChart()
{
    if (!m_chart->scene())
        delete m_chart;
}

QString LoopStepChart::stepSummary(const engine::LoopStep& step)
{
    QString text = tr("%1 survivors, %2 of the model's probability cut, entropy %3 bits")
                       .arg(step.survivors)
                       .arg(step.cutMass, 0, 'g', 3)
                       .arg(step.entropyBits, 0, 'f', 2);
    if (!std::isnan(step.mu))
        text += tr(", mirostat mu %1").arg(step.mu, 0, 'g', 4);
    return text;
}

void LoopStepChart::clear(const QString& message)
{
    clearChart(m_chart);
    m_chart->setTitle(message);
    m_chart->legend()->setVisible(false);
}

namespace {
constexpr qsizetype kStepNameChars = 9;
}  // namespace

void LoopStepChart::setStep(const engine::LoopStep& step, const std::vector<std::string>& vocabulary)
{
    clearChart(m_chart);
    auto* kept = new QBarSet(tr("model p, kept"));
    auto* cut = new QBarSet(tr("model p, cut"));
    auto* final = new QBarSet(tr("p after the chain"));
    kept->setColor(chart_colors::kSurvivor);
    cut->setColor(chart_colors::kCut);
    final->setColor(chart_colors::kRenormalised);
    QStringList names;
    double top = 0.0;
    for (const auto& c : step.top) {
        const bool survives = c.finalP > 0.0;
        kept->append(survives ? c.modelP : 0.0);
        cut->append(survives ? 0.0 : c.modelP);
        final->append(c.finalP);
        top = std::max({top, c.modelP, c.finalP});
        QString name = shownTokenName(vocabulary[static_cast<std::size_t>(c.id)]);
        if (name == QStringLiteral("\n"))
            name = QStringLiteral("¶");
        // Turned names get a few characters' room at a figure's size: cut in the middle here
        // ("read…Json"), not at the end by Qt ("readExperim..."); the CSV has them whole.
        name = shortTokenName(name, kStepNameChars);
        names << chartLabel(c.id == step.token ? QStringLiteral("[%1]").arg(name) : name);
    }
    auto* series = new QBarSeries;
    series->append(kept);
    series->append(cut);
    series->append(final);
    series->setBarWidth(0.85);
    m_chart->addSeries(series);
    auto* x = new QBarCategoryAxis;
    x->append(names);
    auto* y = new QValueAxis;
    y->setTitleText(tr("probability"));
    // A range of whole steps with a tick on each (0, 0.2, ..., 1.0 rather than 0, 0.22, 0.45,
    // 0.67, 0.89 for a top bar of 0.81).
    const double wanted = std::min(1.0, std::max(0.05, top * 1.1));
    const double tick = wanted > 0.5 ? 0.2 : wanted > 0.2 ? 0.1 : wanted > 0.1 ? 0.05 : 0.01;
    const double high = std::min(1.0, std::ceil(wanted / tick - 1e-9) * tick);
    y->setRange(0.0, high);
    y->setTickCount(static_cast<int>(std::lround(high / tick)) + 1);
    m_chart->addAxis(x, Qt::AlignBottom);
    m_chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    BarNames::attach(m_chart, x);  // upright, and thinned when the chart is narrow (a zoomed page)
    m_chart->legend()->setVisible(true);
    QString chosen = shownTokenName(vocabulary[static_cast<std::size_t>(step.token)]);
    if (chosen == QStringLiteral("\n"))
        chosen = QStringLiteral("¶");
    m_chart->setTitle(tr("Step %1: '%2', p %3 (model %4, rank %5)%6")
                          .arg(step.index)
                          .arg(chartLabel(chosen))
                          .arg(step.probability, 0, 'g', 3)
                          .arg(step.modelProbability, 0, 'g', 3)
                          .arg(step.rank)
                          .arg(step.forced ? tr(", forced") : QString()));
}

}  // namespace logitlab::ui
