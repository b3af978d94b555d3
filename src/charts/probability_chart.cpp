#include "charts/probability_chart.h"

#include "charts/chart_style.h"
#include "charts/explorer_snapshot.h"
#include "charts/token_display.h"
#include "engine/core/number_format.h"

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
#include <QLogValueAxis>
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

ProbabilityChart::ProbabilityChart(const ExplorerSnapshot* snapshot, QObject* parent)
    : QObject(parent), m_snapshot(snapshot), m_chart(new QChart), m_series(new QBarSeries),
      m_raw(new QBarSet(tr("p at T (grey: cut)"))), m_renormalised(new QBarSet(tr("renormalised p (drawn from)"))),
      m_cutLine(new QLineSeries), m_tokens(new QBarCategoryAxis), m_probability(new QValueAxis),
      m_logProbability(new QLogValueAxis), m_topPLine(new QLineSeries), m_cutText(new QGraphicsSimpleTextItem(m_chart))
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

    QPen topPPen(kCutLine.darker(140), 1.5, Qt::DotLine);
    m_topPLine->setPen(topPPen);

    m_chart->addSeries(m_series);
    m_chart->addSeries(m_cutLine);
    m_chart->addSeries(m_topPLine);
    m_chart->addAxis(m_tokens, Qt::AlignBottom);
    // Both value axes stay in the chart (styled, zoomed and exported alike); the series are
    // attached to one of them and the other is hidden.
    m_chart->addAxis(m_probability, Qt::AlignLeft);
    m_chart->addAxis(m_logProbability, Qt::AlignLeft);
    for (QAbstractSeries* series : {static_cast<QAbstractSeries*>(m_series), static_cast<QAbstractSeries*>(m_cutLine),
                                    static_cast<QAbstractSeries*>(m_topPLine)}) {
        series->attachAxis(m_tokens);
        series->attachAxis(m_probability);
    }
    m_probability->setTitleText(tr("probability"));
    m_probability->setTickCount(6);
    m_logProbability->setBase(10.0);
    m_logProbability->setLabelFormat(QStringLiteral("%g"));
    m_logProbability->setMinorTickCount(-1);
    m_logProbability->setTitleText(tr("p (log scale)"));
    m_logProbability->setVisible(false);
    m_tokens->setTitleText(tr("token (most likely first)"));
    // Names are already cut in the middle (shownName); Qt's own truncation of slanted labels
    // measures them as if upright and left only "..." for every bar of a large vocabulary.
    m_tokens->setTruncateLabels(false);
    // The bars mark the categories; vertical grid lines between them told nothing and were the
    // costliest part of painting the chart on every slider step (22 antialiased lines).
    m_tokens->setGridLineVisible(false);
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
    rebuild();
}

ProbabilityChart::ProbabilityChart(ExplorerSnapshot snapshot, QObject* parent)
    : ProbabilityChart(static_cast<const ExplorerSnapshot*>(nullptr), parent)
{
    m_ownSnapshot = std::make_unique<const ExplorerSnapshot>(std::move(snapshot));
    m_snapshot = m_ownSnapshot.get();
    rebuild();
}

ProbabilityChart::~ProbabilityChart()
{
    if (!m_chart->scene())
        delete m_chart;
}

QStringList ProbabilityChart::categories() const { return m_tokens->categories(); }

QString ProbabilityChart::cutLabel() const { return m_cutText->isVisible() ? m_cutLabel : QString(); }

void ProbabilityChart::rebuild()
{
    if (!m_snapshot)
        return;  // the owning constructor sets it after the shared set-up
    const auto& order = m_snapshot->idsByLogit();
    const auto& probs = m_snapshot->probabilities();
    const auto& survivors = m_snapshot->survivors();
    const auto n = static_cast<int>(order.size());
    const bool hasRest = n > m_topBars + 1;
    const int shown = hasRest ? m_topBars : n;

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
        const int position = m_snapshot->survivorPosition(id);
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
                    .arg(m_snapshot->tokenName(id))
                    .arg(id)
                    .arg(QString::number(p, 'g', 6), QString::number(q, 'g', 6));
        // A category axis needs unique names; repeated tokens get their id.
        QString name = chartLabel(m_snapshot->shownName(id));
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
    if (m_cumulative) {
        // Running totals, most likely first: where the total crosses top-p is the cut.
        double rawTotal = 0.0;
        double renormTotal = 0.0;
        for (int i = 0; i < raw.size(); ++i) {
            rawTotal += raw[i];
            renormTotal += renorm[i];
            raw[i] = std::min(1.0, rawTotal);
            renorm[i] = std::min(1.0, renormTotal);
        }
    }

    // Replace whole lists at once: point-by-point updates redraw once per point. The old
    // selection is cleared while its bars still exist: cleared after a change in the number of
    // bars, Qt Charts 6.4 kept painting the old cut bars grey.
    m_raw->deselectAllBars();
    m_raw->remove(0, m_raw->count());
    m_raw->append(raw);
    m_renormalised->remove(0, m_renormalised->count());
    m_renormalised->append(renorm);
    m_raw->selectBars(cut);
    // The order by probability does not change with T: while a slider is dragged the axis keeps
    // its labels and skips a relayout of (slanted) text, a third of a frame at V = 262,144.
    if (m_tokens->categories() != names) {
        m_tokens->setCategories(names);
        // Upright names would collide; slanted ones reach past the plot, where Qt hides the
        // first and the last. Values on narrow bars are cut to the bar's width unless turned.
        m_tokens->setLabelsAngle(names.size() > 8 ? -90 : 0);
        m_series->setLabelsAngle(names.size() > 8 ? -90 : 0);
        m_tokens->setTitleText(hasRest ? tr("token (top %1 by probability, then the rest of the vocabulary)").arg(shown)
                                       : tr("token (most likely first)"));
    }

    double tallest = 0.0;
    double smallest = 1.0;  // the smallest height above 0, for the log axis's bottom decade
    for (int i = 0; i < raw.size(); ++i) {
        tallest = std::max({tallest, raw[i], renorm[i]});
        for (double v : {raw[i], renorm[i]})
            if (v > 0.0)
                smallest = std::min(smallest, v);
    }
    // Running totals reach 1 right of the cut: the room above 1 keeps the cut's label and the
    // values on the bars off them.
    const Axis axis = m_cumulative ? Axis{1.2, 0.2} : m_fixedAxis ? Axis{1.0, 0.2} : niceAxis(tallest);
    double top = axis.top;
    // Every change below relayouts the whole chart, its turned token labels included (a third of
    // a frame at V = 262,144), and Qt announces some even when the value is the same: so only
    // what differs is set, and the ticks are set already fitted to the plot.
    setValueAxisTicks(m_chart, m_probability, 0.0, top, static_cast<int>(std::lround(top / axis.step)) + 1);
    const QString format = axis.step >= 0.1    ? QStringLiteral("%.1f")
                           : axis.step >= 0.01 ? QStringLiteral("%.2f")
                                               : QStringLiteral("%.3f");
    if (m_probability->labelFormat() != format)
        m_probability->setLabelFormat(format);
    m_probability->setTitleText(m_cumulative ? tr("cumulative probability") : tr("probability"));
    if (m_logScale) {
        // Whole decades from below the smallest bar to 1; never below 1e-15, where float
        // noise is all a bar would show.
        // At least two decades, so the axis has a label below 1.
        const double decade = std::clamp(std::floor(std::log10(smallest)), -15.0, -2.0);
        m_logBottom = std::pow(10.0, decade);
        top = 1.0;
        // A hair below the decade: log10(1e-3) rounds above -3 and Qt drops that label.
        m_logProbability->setRange(m_logBottom * (1.0 - 1e-9), top);
    }

    // The cut sits between the last survivor and the first cut token, or inside the rest bar,
    // when the survivors are the most likely tokens. XTC (or a penalty or bias, which reorder
    // the bars' typed-logit order) can keep tokens further down and cut ones above them: then
    // no single line separates them, the colours do, and the label says so.
    const auto& analysis = m_snapshot->analysis();
    const int survivorCount = static_cast<int>(survivors.size());
    bool survivorsLead = true;
    for (int i = 0; i < kept.size(); ++i)
        survivorsLead = survivorsLead && kept[i] == i;
    if (survivorCount < shown && kept.size() != survivorCount)
        survivorsLead = false;
    m_cutX = -1.0;
    QString label;
    if (n > 0 && analysis.rule != engine::CutRule::None && !survivors.empty()) {
        label = m_snapshot->cutDescription();
        if (survivorsLead) {
            m_cutX = survivorCount < shown ? survivorCount - 0.5 : shown;
            if (survivorCount >= shown)
                label += tr(" (inside the rest: %L1 survivors)").arg(survivorCount);
        } else {
            label += tr("\nthe survivors (blue) are not the most likely tokens");
        }
    }
    const double bottom = m_logScale ? m_logProbability->min() : 0.0;
    if (m_cutX >= 0.0)
        m_cutLine->replace(QList<QPointF>{{m_cutX, bottom}, {m_cutX, top}});
    else
        m_cutLine->clear();
    m_cutLine->setVisible(m_cutX >= 0.0);
    for (QLegendMarker* marker : m_chart->legend()->markers(m_cutLine))
        if (marker->isVisible() != (m_cutX >= 0.0))
            marker->setVisible(m_cutX >= 0.0);
    const auto& s = m_snapshot->settings();
    m_topPY = m_cumulative && s.temperature != 0.0 && s.topP ? *s.topP : -1.0;
    if (m_topPY >= 0.0) {
        m_topPLine->setName(tr("top-p = %1").arg(QString::fromStdString(engine::formatDouble(m_topPY))));
        m_topPLine->replace(QList<QPointF>{{-0.5, m_topPY}, {raw.size() - 0.5, m_topPY}});
    } else {
        m_topPLine->clear();
    }
    m_topPLine->setVisible(m_topPY >= 0.0);
    for (QLegendMarker* marker : m_chart->legend()->markers(m_topPLine))
        if (marker->isVisible() != (m_topPY >= 0.0))
            marker->setVisible(m_topPY >= 0.0);
    m_cutLabel = label;
    m_cutText->setText(label);
    m_cutText->setVisible(!label.isEmpty());

    const auto num = [](double v) { return QString::fromStdString(engine::formatDouble(v)); };
    QString title = s.temperature == 0.0 ? tr("T = 0: greedy (argmax)") : tr("T = %1").arg(num(s.temperature));
    if (s.temperature != 0.0 && s.topK)
        title += tr(", top-k = %1").arg(*s.topK);
    if (s.temperature != 0.0 && s.topP)
        title += tr(", top-p = %1").arg(num(*s.topP));
    const engine::ExplorerChain& chain = m_snapshot->chain();
    if (chain.semantics != engine::Semantics::Lesson)
        title.prepend(QString::fromStdString(engine::semanticsName(chain.semantics)) + QStringLiteral(": "));
    if (chain.stages != engine::ChainSettings{})
        title += tr(" + further stages");
    if (m_cumulative)
        title.prepend(tr("Cumulative, "));
    title +=
        survivorCount == 1 ? tr(": 1 survivor of %L1").arg(n) : tr(": %L1 survivors of %L2").arg(survivorCount).arg(n);
    if (m_chart->title() != title)
        m_chart->setTitle(title);
    placeCutLabel();
}

QString ProbabilityChart::barToolTip(int index) const
{
    return index >= 0 && index < m_barTips.size() ? m_barTips[index] : QString();
}

void ProbabilityChart::setTopBars(int n)
{
    n = std::clamp(n, 1, 200);
    if (n == m_topBars)
        return;
    m_topBars = n;
    rebuild();
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

double ProbabilityChart::axisTop() const { return m_logScale ? m_logProbability->max() : m_probability->max(); }

double ProbabilityChart::axisBottom() const { return m_logScale ? m_logBottom : m_probability->min(); }

QList<double> ProbabilityChart::rawHeights() const
{
    QList<double> heights;
    for (int i = 0; i < m_raw->count(); ++i)
        heights << m_raw->at(i);
    return heights;
}

void ProbabilityChart::setLogScale(bool on)
{
    if (on == m_logScale)
        return;
    m_logScale = on;
    useAxis(on);
    rebuild();
}

void ProbabilityChart::setCumulative(bool on)
{
    if (on == m_cumulative)
        return;
    m_cumulative = on;
    m_raw->setLabel(on ? tr("running total of p at T (grey: cut)") : tr("p at T (grey: cut)"));
    m_renormalised->setLabel(on ? tr("running total of renormalised p") : tr("renormalised p (drawn from)"));
    rebuild();
}

void ProbabilityChart::useAxis(bool log)
{
    QAbstractAxis* from = log ? static_cast<QAbstractAxis*>(m_probability) : m_logProbability;
    QAbstractAxis* to = log ? static_cast<QAbstractAxis*>(m_logProbability) : m_probability;
    for (QAbstractSeries* series : {static_cast<QAbstractSeries*>(m_series), static_cast<QAbstractSeries*>(m_cutLine),
                                    static_cast<QAbstractSeries*>(m_topPLine)}) {
        series->detachAxis(from);
        series->attachAxis(to);
    }
    from->setVisible(false);
    to->setVisible(true);
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
    const QPointF at = m_chart->mapToPosition(QPointF(m_cutX, axisTop()), m_cutLine);
    const double right = plot.right() - at.x() - 8.0;  // room beside the line, on either side
    const double left = at.x() - plot.left() - 8.0;
    QRectF box = m_cutText->boundingRect();
    if (box.width() > right && box.width() > left) {
        // Too wide for either side: wrapped at spaces, so the text never crosses the line it
        // labels (the lesson's "cumulative 0.918 > 0.9 after 'items'" did). On the right where
        // every word fits there: the bars right of the cut are the lowest, so it lies over empty
        // plot; else on the roomier side.
        const QStringList words = QString(m_cutLabel)
                                      .replace(QLatin1Char('\n'), QLatin1Char(' '))
                                      .split(QLatin1Char(' '), Qt::SkipEmptyParts);
        double widestWord = 0.0;
        for (const QString& word : words)
            widestWord = std::max(widestWord, metrics.horizontalAdvance(word));
        const double width = right >= widestWord ? right : std::max(right, left);
        QStringList wrapped;
        for (const QString& line : m_cutLabel.split(QLatin1Char('\n')))
            wrapped += wrapToWidth(line, metrics, width);
        m_cutText->setText(wrapped.join(QLatin1Char('\n')));
        box = m_cutText->boundingRect();
    }
    double x = at.x() + 6.0;
    if (box.width() > right)
        x = at.x() - 6.0 - box.width();  // no room on the right: put it on the left of the line
    m_cutText->setPos(std::max(plot.left() + 2.0, x), plot.top() + 4.0);
}

QStringList ProbabilityChart::wrapToWidth(const QString& line, const QFontMetricsF& metrics, double width)
{
    QStringList lines;
    QString current;
    for (const QString& word : line.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString longer = current.isEmpty() ? word : current + QLatin1Char(' ') + word;
        if (!current.isEmpty() && metrics.horizontalAdvance(longer) > width) {
            lines += current;
            current = word;
        } else {
            current = longer;
        }
    }
    if (!current.isEmpty() || lines.isEmpty())
        lines += current;
    for (QString& l : lines)
        l = metrics.elidedText(l, Qt::ElideMiddle, width);  // a single word wider than the room
    return lines;
}

bool ProbabilityChart::cutLabelClearOfLine() const
{
    if (!m_cutText->isVisible() || m_cutX < 0.0)
        return true;
    const double line = m_chart->mapToPosition(QPointF(m_cutX, axisTop()), m_cutLine).x();
    const QRectF box = m_cutText->mapRectToParent(m_cutText->boundingRect());
    return box.right() < line || box.left() > line;
}

}  // namespace logitlab::ui
