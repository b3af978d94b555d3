#include "charts/batch_invariance_charts.h"

#include "app/kinds/batch_invariance_job.h"
#include "charts/chart_lifetime.h"
#include "charts/chart_style.h"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace logitlab::ui {

namespace {

const QColor kHeld(0x1f, 0x77, 0xb4);
const QColor kFlipped(0xd6, 0x27, 0x28);
const QColor kSecond(0xff, 0x7f, 0x0e);
constexpr double kLogFloor = 1e-9;  // where a zero gap or error is drawn on a log axis

QScatterSeries* scatter(const QString& name, const QColor& color, double size)
{
    auto* s = new QScatterSeries;
    s->setName(name);
    s->setColor(color);
    s->setBorderColor(color);
    s->setMarkerSize(size);
    return s;
}

void attach(QChart* chart, QAbstractSeries* series, QAbstractAxis* x, QAbstractAxis* y)
{
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
}

void flipMap(QChart* chart, const app::BatchInvarianceOutcome& o)
{
    chart->setTitle(QObject::tr("Which batch sizes flip the nearest tie's argmax (vs batch 1)"));
    auto* x = new QValueAxis;
    x->setTitleText(QObject::tr("batch size"));
    // Ticks on whole batch sizes (a fixed tick count would put them at 0.5, 4.5, ...).
    setWholeNumberTicks(x, 1.0, static_cast<double>(o.spec.maxBatch), 9, 0.5);
    auto* y = new QCategoryAxis;
    y->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    y->setRange(-0.5, static_cast<double>(o.spec.precisions.size()) - 0.5);
    for (int i = 0; i < o.spec.precisions.size(); ++i)
        y->append(o.spec.precisions[i], i);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    auto* held = scatter(QObject::tr("same argmax"), kHeld, 9);
    auto* flipped = scatter(QObject::tr("flipped"), kFlipped, 14);
    for (const auto& row : o.flips) {
        const auto level = static_cast<double>(o.spec.precisions.indexOf(QString::fromStdString(row.precision)));
        (row.flipped ? flipped : held)->append(static_cast<double>(row.batch), level);
    }
    attach(chart, held, x, y);
    attach(chart, flipped, x, y);
}

}  // namespace

QLineSeries* flipBoundLine(double low, double high)
{
    // Each of the top two logits can move by up to the error, so the gap closes by up to twice it:
    // flips sit below gap = 2 x error (not gap = error: one example flip has gap / error 1.09).
    auto* line = new QLineSeries;
    line->setName(QObject::tr("gap = 2 x error"));
    line->setPen(QPen(QColor(0x80, 0x80, 0x80), 1.5, Qt::DashLine));
    line->append(low, 2.0 * low);
    line->append(high / 2.0, high);
    return line;
}

namespace {

void gapVersusError(QChart* chart, const app::BatchInvarianceOutcome& o)
{
    chart->setTitle(QObject::tr("Top-two gap against the kernels' reduction error (0 drawn at 1e-9)"));
    auto* x = new QLogValueAxis;
    x->setTitleText(QObject::tr("reduction error across kernels"));  // a logit's max spread; short for 8.5 cm
    x->setLabelFormat(QStringLiteral("%.0e"));
    auto* y = new QLogValueAxis;
    y->setTitleText(QObject::tr("top-two gap (invariant kernel)"));
    y->setLabelFormat(QStringLiteral("%.0e"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    auto* held = scatter(QObject::tr("same argmax in every kernel"), kHeld, 6);
    auto* flipped = scatter(QObject::tr("kernels disagree"), kFlipped, 10);
    double low = 1.0;
    double high = kLogFloor;
    for (const auto& p : o.points) {
        const double e = std::max(p.error, kLogFloor);
        const double g = std::max(p.gap, kLogFloor);
        low = std::min({low, e, g});
        high = std::max({high, e, g});
        (p.flipped ? flipped : held)->append(e, g);
    }
    low = std::pow(10.0, std::floor(std::log10(low)));
    high = std::pow(10.0, std::ceil(std::log10(high)));
    x->setRange(low, high);
    y->setRange(low, high);
    attach(chart, flipBoundLine(low, high), x, y);
    attach(chart, held, x, y);
    attach(chart, flipped, x, y);
}

void divergencePositions(QChart* chart, const app::BatchInvarianceOutcome& o)
{
    const auto& d = o.decode;
    chart->setTitle(QObject::tr("Where runs leave the invariant completion (%1 of %2 runs)")
                        .arg(d.steps.empty() ? 0 : d.steps.back().runsDiverged)
                        .arg(o.spec.runs));
    // One bar per step, drawn as an area over a value axis: a category axis would have to
    // label every step, and hundreds of labels cannot fit.
    auto* upper = new QLineSeries;
    double top = 1.0;
    for (const auto& s : d.steps) {
        const auto t = static_cast<double>(s.step);
        const auto c = static_cast<double>(s.firstDivergences);
        upper->append(t - 0.4, 0.0);
        upper->append(t - 0.4, c);
        upper->append(t + 0.4, c);
        upper->append(t + 0.4, 0.0);
        top = std::max(top, c);
    }
    auto* bars = new QAreaSeries(upper);
    upper->setParent(bars);
    bars->setName(QObject::tr("runs whose first divergent step is here"));
    bars->setColor(kFlipped);
    bars->setBorderColor(kFlipped);
    auto* x = new QValueAxis;
    x->setTitleText(QObject::tr("step"));
    setWholeNumberTicks(x, 0.0, std::max(0.5, static_cast<double>(d.steps.size()) - 1.0), 7, 0.5);
    auto* y = new QValueAxis;
    y->setTitleText(QObject::tr("runs"));
    setWholeNumberTicks(y, 0.0, top);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    attach(chart, bars, x, y);
}

void distinctStates(QChart* chart, const app::BatchInvarianceOutcome& o)
{
    const auto& d = o.decode;
    chart->setTitle(QObject::tr("Distinct states the %1 runs occupy, and the (prefix, kernel) evaluations they cost")
                        .arg(o.spec.runs));
    auto* states = new QLineSeries;
    states->setName(QObject::tr("distinct states"));
    states->setPen(QPen(kHeld, 2));
    auto* evaluations = new QLineSeries;
    evaluations->setName(QObject::tr("evaluations"));
    evaluations->setPen(QPen(kSecond, 2));
    double top = 1.0;
    for (const auto& s : d.steps) {
        states->append(static_cast<double>(s.step), static_cast<double>(s.distinctStates));
        evaluations->append(static_cast<double>(s.step), static_cast<double>(s.evaluations));
        top = std::max({top, static_cast<double>(s.distinctStates), static_cast<double>(s.evaluations)});
    }
    auto* x = new QValueAxis;
    x->setTitleText(QObject::tr("step"));
    setWholeNumberTicks(x, 0.0, std::max(1.0, static_cast<double>(d.steps.size()) - 1.0));
    auto* y = new QValueAxis;
    y->setTitleText(QObject::tr("count"));
    setWholeNumberTicks(y, 0.0, top);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    attach(chart, states, x, y);
    attach(chart, evaluations, x, y);
}

// Model decode: how far each batch size's greedy reply keeps the invariant kernel's.
void modelDivergence(QChart* chart, const app::BatchInvarianceOutcome& o)
{
    const auto steps = static_cast<double>(o.spec.steps);
    chart->setTitle(QObject::tr("Steps each batch size's greedy reply shares with the invariant kernel's (of %1)")
                        .arg(o.spec.steps));
    auto* same = scatter(QObject::tr("the same reply"), kHeld, 9);
    auto* diverged = scatter(QObject::tr("diverges at this step"), kFlipped, 12);
    for (const auto& row : o.model.rows) {
        if (row.firstDivergent >= 0)
            diverged->append(static_cast<double>(row.batch), static_cast<double>(row.firstDivergent));
        else
            same->append(static_cast<double>(row.batch), steps);
    }
    auto* x = new QValueAxis;
    x->setTitleText(QObject::tr("batch size"));
    setWholeNumberTicks(x, 1.0, static_cast<double>(o.spec.maxBatch), 9, 0.5);
    auto* y = new QValueAxis;
    y->setTitleText(QObject::tr("tokens shared"));
    setWholeNumberTicks(y, 0.0, steps, 7, 0.5);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    attach(chart, same, x, y);
    attach(chart, diverged, x, y);
}

// Model decode: each batch size's largest logit change after the prompt (log scale).
void modelDifference(QChart* chart, const app::BatchInvarianceOutcome& o)
{
    chart->setTitle(QObject::tr("Largest |logit - invariant kernel's logit| after the prompt (0 drawn at 1e-9)"));
    auto* equal = scatter(QObject::tr("the same bits"), kHeld, 9);
    auto* changed = scatter(QObject::tr("logits differ"), kSecond, 9);
    double high = 1e-6;
    for (const auto& row : o.model.rows) {
        (row.maxDifference > 0.0 ? changed : equal)
            ->append(static_cast<double>(row.batch), std::max(row.maxDifference, kLogFloor));
        high = std::max(high, row.maxDifference);
    }
    auto* x = new QValueAxis;
    x->setTitleText(QObject::tr("batch size"));
    setWholeNumberTicks(x, 1.0, static_cast<double>(o.spec.maxBatch), 9, 0.5);
    auto* y = new QLogValueAxis;
    y->setTitleText(QObject::tr("max |Δ logit|"));
    y->setLabelFormat(QStringLiteral("%.0e"));
    y->setRange(kLogFloor / 2.0, std::pow(10.0, std::ceil(std::log10(high))));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    attach(chart, equal, x, y);
    attach(chart, changed, x, y);
}

}  // namespace

BatchInvarianceCharts::BatchInvarianceCharts(QObject* parent)
    : QObject(parent), m_first(newRebuiltChart()), m_second(newRebuiltChart())
{
}

BatchInvarianceCharts::~BatchInvarianceCharts()
{
    deleteUnlessInScene(m_first);
    deleteUnlessInScene(m_second);
}

void BatchInvarianceCharts::setOutcome(const app::BatchInvarianceOutcome& outcome)
{
    clearChart(m_first);
    clearChart(m_second);
    if (outcome.spec.study == app::BatchInvarianceSpec::Study::OneStep) {
        flipMap(m_first, outcome);
        gapVersusError(m_second, outcome);
    } else if (outcome.spec.study == app::BatchInvarianceSpec::Study::ModelDecode) {
        modelDivergence(m_first, outcome);
        modelDifference(m_second, outcome);
    } else {
        divergencePositions(m_first, outcome);
        distinctStates(m_second, outcome);
    }
}

}  // namespace logitlab::ui
