#include "charts/step_sweep_charts.h"

#include "charts/chart_lifetime.h"

#include <QChart>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>

namespace logitlab::ui {

namespace {

const QColor kObserved(0x1f, 0x77, 0xb4);
const QColor kExpected(0xff, 0x7f, 0x0e);

QValueAxis* stepAxis(const std::vector<app::StepSweepRow>& rows)
{
    auto* axis = new QValueAxis;
    const double first = rows.empty() ? 0.0 : double(rows.front().step);
    const double last = rows.empty() ? 1.0 : double(rows.back().step);
    axis->setRange(first - 0.5, std::max(last, first + 1.0) + 0.5);
    axis->setTitleText(QObject::tr("step"));
    axis->setLabelFormat(QStringLiteral("%d"));
    return axis;
}

}  // namespace

StepSweepCharts::StepSweepCharts(QObject* parent)
    : QObject(parent), m_tokens(newRebuiltChart()), m_pValues(newRebuiltChart())
{
}

StepSweepCharts::~StepSweepCharts()
{
    deleteUnlessInScene(m_tokens);
    deleteUnlessInScene(m_pValues);
}

void StepSweepCharts::setRows(const std::vector<app::StepSweepRow>& rows)
{
    clearChart(m_tokens);
    auto* left = new QLineSeries;
    left->setName(tr("tokens the chain leaves"));
    left->setColor(kExpected);
    auto* drawn = new QLineSeries;
    drawn->setName(tr("of those, drawn at least once"));
    drawn->setColor(kObserved);
    double most = 1.0;
    for (const auto& r : rows) {
        left->append(double(r.step), double(r.outcomes));
        drawn->append(double(r.step), double(r.distinctDrawn));
        most = std::max(most, double(r.outcomes));
    }
    m_tokens->addSeries(left);
    m_tokens->addSeries(drawn);
    auto* x = stepAxis(rows);
    auto* y = new QValueAxis;
    y->setRange(0, most * 1.1);
    y->setTitleText(tr("tokens"));
    y->setLabelFormat(QStringLiteral("%d"));
    y->applyNiceNumbers();
    m_tokens->addAxis(x, Qt::AlignBottom);
    m_tokens->addAxis(y, Qt::AlignLeft);
    for (auto* s : {left, drawn}) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
    m_tokens->setTitle(tr("Tokens per step (%1 steps)").arg(rows.size()));

    clearChart(m_pValues);
    auto* points = new QScatterSeries;
    points->setName(tr("KS p of the per-seed fits (valid steps only)"));
    points->setColor(kObserved);
    points->setMarkerSize(7);
    std::size_t tested = 0;
    for (const auto& r : rows)
        if (r.ksP) {
            points->append(double(r.step), *r.ksP);
            ++tested;
        }
    auto* alpha = new QLineSeries;
    alpha->setName(tr("p = %1").arg(app::kSeedSweepAlpha));
    alpha->setPen(QPen(kExpected, 1, Qt::DashLine));
    auto* px = stepAxis(rows);
    alpha->append(px->min(), app::kSeedSweepAlpha);
    alpha->append(px->max(), app::kSeedSweepAlpha);
    m_pValues->addSeries(points);
    m_pValues->addSeries(alpha);
    auto* py = new QValueAxis;
    py->setRange(0, 1);
    py->setTitleText(tr("KS p-value"));
    m_pValues->addAxis(px, Qt::AlignBottom);
    m_pValues->addAxis(py, Qt::AlignLeft);
    for (QXYSeries* s : {static_cast<QXYSeries*>(points), static_cast<QXYSeries*>(alpha)}) {
        s->attachAxis(px);
        s->attachAxis(py);
    }
    m_pValues->setTitle(tr("Goodness of fit per step: %1 of %2 steps have a valid test").arg(tested).arg(rows.size()));
}

}  // namespace logitlab::ui
