#include "probability_chart.h"

#include "chart_style.h"
#include "logits_table_model.h"
#include "number_format.h"

#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QCursor>
#include <QFont>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QSet>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace logitlab::ui {

namespace {

// A y axis that ends on a round number just above the tallest bar, with ticks on round steps,
// so small probabilities in a large vocabulary are readable and every label reads exactly.
struct Axis {
    double top;
    double step;
};

Axis niceAxis(double tallest)
{
    for (double step : {0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2}) {
        const double top = std::min(1.0, std::ceil(tallest * 1.05 / step - 1e-9) * step);
        if (std::lround(top / step) <= 7)
            return {std::max(top, step), step};
    }
    return {1.0, 0.2};
}

}  // namespace

ProbabilityChart::ProbabilityChart(const LogitsTableModel* model, QObject* parent)
    : QObject(parent),
      m_model(model),
      m_chart(new QChart),
      m_series(new QBarSeries),
      m_raw(new QBarSet(tr("p at T (grey: cut)"))),
      m_renormalised(new QBarSet(tr("renormalised p (drawn from)"))),
      m_cutLine(new QLineSeries),
      m_tokens(new QBarCategoryAxis),
      m_probability(new QValueAxis),
      m_cutText(new QGraphicsSimpleTextItem(m_chart))
{
    using namespace chart_colors;
    // The legend shows the set's own colour: blue, with the cut bars selected to grey, so the
    // marker matches what its label names.
    m_raw->setColor(kSurvivor);
    m_raw->setBorderColor(kSurvivor.darker(130));
    m_raw->setSelectedColor(kCut);
    m_renormalised->setColor(kRenormalised);
    m_renormalised->setBorderColor(kRenormalised.darker(130));
    m_series->append(m_raw);
    m_series->append(m_renormalised);
    m_series->setBarWidth(0.8);
    m_cutLine->setName(tr("filter cut"));
    QPen cutPen(kCutLine, 2.0, Qt::DashLine);
    m_cutLine->setPen(cutPen);

    m_chart->addSeries(m_series);
    m_chart->addSeries(m_cutLine);
    m_chart->addAxis(m_tokens, Qt::AlignBottom);
    m_chart->addAxis(m_probability, Qt::AlignLeft);
    m_series->attachAxis(m_tokens);
    m_series->attachAxis(m_probability);
    m_cutLine->attachAxis(m_tokens);
    m_cutLine->attachAxis(m_probability);
    m_probability->setTitleText(tr("probability"));
    m_probability->setTickCount(6);
    m_tokens->setTitleText(tr("token (most likely first)"));
    styleChart(m_chart, QApplication::palette());
    m_cutText->setBrush(kCutLine);
    m_cutText->setZValue(10);

    connect(m_chart, &QChart::plotAreaChanged, this, &ProbabilityChart::placeCutLabel);
    // Axis labels are cut in the middle; the whole name (and the values) is one hover away.
    for (QBarSet* set : {m_raw, m_renormalised})
        connect(set, &QBarSet::hovered, this, [this](bool over, int index) {
            if (over)
                QToolTip::showText(QCursor::pos(), barToolTip(index));
            else
                QToolTip::hideText();
        });
    connect(model, &LogitsTableModel::resultsChanged, this, &ProbabilityChart::rebuild);
    rebuild();
}

ProbabilityChart::~ProbabilityChart()
{
    if (!m_chart->scene())
        delete m_chart;
}

QStringList ProbabilityChart::categories() const
{
    return m_tokens->categories();
}

QString ProbabilityChart::cutLabel() const
{
    return m_cutText->isVisible() ? m_cutLabel : QString();
}

void ProbabilityChart::rebuild()
{
    const auto& order = m_model->idsByLogit();
    const auto& probs = m_model->probabilities();
    const auto& survivors = m_model->survivors();
    const auto n = static_cast<int>(order.size());
    const bool hasRest = n > kTopBars + 1;
    const int shown = hasRest ? kTopBars : n;

    QList<qreal> raw;
    QList<qreal> renorm;
    QList<int> kept;
    QList<int> cut;
    QStringList names;
    QStringList tips;  // the whole name and the values, for the hover
    QSet<QString> seen;
    double rawShown = 0.0;
    double renormShown = 0.0;
    for (int i = 0; i < shown; ++i) {
        const std::int32_t id = order[static_cast<std::size_t>(i)];
        const double p = probs[static_cast<std::size_t>(id)];
        const int position = m_model->survivorPosition(id);
        const double q = position >= 0 ? survivors[static_cast<std::size_t>(position)].p : 0.0;
        raw << p;
        renorm << q;
        rawShown += p;
        renormShown += q;
        if (position >= 0)
            kept << i;
        else
            cut << i;
        tips << tr("%1 (id %2)\np at T %3, renormalised %4")
                    .arg(m_model->tokenName(id))
                    .arg(id)
                    .arg(QString::number(p, 'g', 6), QString::number(q, 'g', 6));
        // A category axis needs unique names; repeated tokens get their id.
        QString name = m_model->shownName(id);
        if (seen.contains(name))
            name += QStringLiteral(" #%1").arg(id);
        seen.insert(name);
        names << name;
    }
    m_restMass = 0.0;
    if (hasRest) {
        m_restMass = std::max(0.0, 1.0 - rawShown);
        raw << m_restMass;
        renorm << std::max(0.0, static_cast<int>(survivors.size()) > shown ? 1.0 - renormShown : 0.0);
        if (static_cast<int>(survivors.size()) > shown)
            kept << shown;
        else
            cut << shown;
        names << tr("rest (%L1)").arg(n - shown);
        tips << tr("the other %L1 tokens together\np at T %2").arg(n - shown).arg(QString::number(m_restMass, 'g', 6));
    }
    m_barTips = tips;

    // Replace whole lists at once: point-by-point updates redraw once per point.
    m_raw->remove(0, m_raw->count());
    m_raw->append(raw);
    m_renormalised->remove(0, m_renormalised->count());
    m_renormalised->append(renorm);
    m_raw->deselectAllBars();
    m_raw->selectBars(cut);
    // The order by probability does not change with T: while a slider is dragged the axis keeps
    // its labels and skips a relayout of (slanted) text, a third of a frame at V = 262,144.
    if (m_tokens->categories() != names) {
        m_tokens->setCategories(names);
        m_tokens->setLabelsAngle(names.size() > 8 ? -60 : 0);  // slanted when upright names would collide
        m_tokens->setTitleText(hasRest ? tr("token (top %1 by probability, then the rest of the vocabulary)").arg(shown)
                                       : tr("token (most likely first)"));
    }

    double tallest = 0.0;
    for (int i = 0; i < raw.size(); ++i)
        tallest = std::max({tallest, raw[i], renorm[i]});
    const Axis axis = m_fixedAxis ? Axis{1.0, 0.2} : niceAxis(tallest);
    const double top = axis.top;
    m_probability->setRange(0.0, top);
    m_probability->setTickCount(static_cast<int>(std::lround(top / axis.step)) + 1);
    m_probability->setLabelFormat(axis.step >= 0.1 ? QStringLiteral("%.1f")
                                  : axis.step >= 0.01 ? QStringLiteral("%.2f") : QStringLiteral("%.3f"));

    // The cut sits between the last survivor and the first cut token, or inside the rest bar,
    // when the survivors are the most likely tokens. XTC (or a penalty or bias, which reorder
    // the bars' typed-logit order) can keep tokens further down and cut ones above them: then
    // no single line separates them, the colours do, and the label says so.
    const auto& analysis = m_model->analysis();
    const int survivorCount = static_cast<int>(survivors.size());
    bool survivorsLead = true;
    for (int i = 0; i < kept.size(); ++i)
        survivorsLead = survivorsLead && kept[i] == i;
    if (survivorCount < shown && kept.size() != survivorCount)
        survivorsLead = false;
    m_cutX = -1.0;
    QString label;
    if (n > 0 && analysis.rule != engine::CutRule::None && !survivors.empty()) {
        label = m_model->cutDescription();
        if (survivorsLead) {
            m_cutX = survivorCount < shown ? survivorCount - 0.5 : shown;
            if (survivorCount >= shown)
                label += tr(" (inside the rest: %L1 survivors)").arg(survivorCount);
        } else {
            label += tr("\nthe survivors (blue) are not the most likely tokens");
        }
    }
    if (m_cutX >= 0.0)
        m_cutLine->replace(QList<QPointF>{{m_cutX, 0.0}, {m_cutX, top}});
    else
        m_cutLine->clear();
    m_cutLine->setVisible(m_cutX >= 0.0);
    for (QLegendMarker* marker : m_chart->legend()->markers(m_cutLine))
        marker->setVisible(m_cutX >= 0.0);
    m_cutLabel = label;
    m_cutText->setText(label);
    m_cutText->setVisible(!label.isEmpty());

    const auto& s = m_model->settings();
    const auto num = [](double v) { return QString::fromStdString(engine::formatDouble(v)); };
    QString title = s.temperature == 0.0 ? tr("T = 0: greedy (argmax)") : tr("T = %1").arg(num(s.temperature));
    if (s.temperature != 0.0 && s.topK)
        title += tr(", top-k = %1").arg(*s.topK);
    if (s.temperature != 0.0 && s.topP)
        title += tr(", top-p = %1").arg(num(*s.topP));
    const engine::ExplorerChain& chain = m_model->chain();
    if (chain.semantics != engine::Semantics::Lesson)
        title.prepend(QString::fromStdString(engine::semanticsName(chain.semantics)) + QStringLiteral(": "));
    if (chain.stages != engine::ChainSettings{})
        title += tr(" + further stages");
    title += survivorCount == 1 ? tr(": 1 survivor of %L1").arg(n) : tr(": %L1 survivors of %L2").arg(survivorCount).arg(n);
    m_chart->setTitle(title);
    placeCutLabel();
}

QString ProbabilityChart::barToolTip(int index) const
{
    return index >= 0 && index < m_barTips.size() ? m_barTips[index] : QString();
}

void ProbabilityChart::setValuesOnBars(bool on)
{
    m_valuesOnBars = on;
    m_series->setLabelsVisible(on);
    m_series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    m_series->setLabelsPrecision(3);
    m_series->setLabelsFormat(QStringLiteral("@value"));
}

void ProbabilityChart::setFixedAxis(bool on)
{
    m_fixedAxis = on;
    rebuild();
}

double ProbabilityChart::axisTop() const
{
    return m_probability->max();
}

void ProbabilityChart::placeCutLabel()
{
    if (m_chart->plotArea().isEmpty())
        return;
    const QRectF plot = m_chart->plotArea();
    // A long chain is cut in the middle to the plot's width; the whole text is one hover away.
    // Bold at the legend's size: it follows View > Zoom and an export's font scale.
    QFont labelFont = m_chart->legend()->font();
    labelFont.setBold(true);
    m_cutText->setFont(labelFont);
    const QFontMetricsF metrics(labelFont);
    QStringList lines = m_cutLabel.split(QLatin1Char('\n'));
    for (QString& line : lines)
        line = metrics.elidedText(line, Qt::ElideMiddle, plot.width() - 12.0);
    m_cutText->setText(lines.join(QLatin1Char('\n')));
    m_cutText->setToolTip(m_cutLabel);
    if (m_cutX < 0.0) {
        m_cutText->setPos(plot.left() + 6.0, plot.top() + 4.0);  // no line to stand by
        return;
    }
    const QPointF at = m_chart->mapToPosition(QPointF(m_cutX, m_probability->max()), m_cutLine);
    const QRectF box = m_cutText->boundingRect();
    double x = at.x() + 6.0;
    if (x + box.width() > plot.right())
        x = at.x() - 6.0 - box.width();  // no room on the right: put it on the left of the line
    m_cutText->setPos(std::max(plot.left() + 2.0, x), plot.top() + 4.0);
}

}  // namespace logitlab::ui
