#include "charts/chart_style.h"

#include <QAbstractAxis>
#include <QAbstractBarSeries>
#include <QApplication>
#include <QBarSet>
#include <QChart>
#include <QFont>
#include <QFontMetricsF>
#include <QLogValueAxis>
#include <QValueAxis>

#include <QLegend>
#include <QPalette>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>

namespace logitlab::ui {

namespace {

const char* const kOwnTicks = "logitlabOwnTicks";        // the tick count the chart's code chose
const char* const kOwnMax = "logitlabOwnMax";            // and the axis end it chose
const char* const kFittedTicks = "logitlabFittedTicks";  // what fitValueTicks() set instead
const char* const kFittedMax = "logitlabFittedMax";

struct Ticks {
    int count;
    double max;
};

// A step of 1, 2 or 5 x 10^k: labels on such steps read as round numbers.
bool isRoundStep(double step)
{
    if (!(step > 0.0) || !std::isfinite(step))
        return false;
    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    for (double round : {1.0, 2.0, 5.0, 10.0})
        if (std::abs(mantissa - round) < 1e-6)
            return true;
    return false;
}

// The next round step above `step` (a round one): 1 -> 2 -> 5 -> 10.
double nextRoundStep(double step)
{
    const double scale = std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    const double mantissa = std::round(step / scale);
    return (mantissa < 2.0 ? 2.0 : mantissa < 5.0 ? 5.0 : 10.0) * scale;
}

// Fixed ticks only, never QValueAxis::TicksDynamic: a dynamic interval outlives the range it was
// chosen for, and Qt Charts then lays out millions of ticks when the chart's code changes the
// range (0..1 to 0..262,144). Fewer fixed ticks keep the chart's round values when the count of
// intervals divides the chart's own into round steps (0..0.22 in steps of 0.01 is not labelled
// 0, 0.11, 0.22); otherwise (0..0.7 in 7 steps, room for 4 ticks) the axis end moves up to a
// multiple of the next round step that fits (0..1.0 in steps of 0.5) rather than leaving only
// its two ends labelled. A chart whose own step is not round (0..262,144 in 8) keeps dividing.
Ticks fittedTicks(int own, double min, double max, int fits)
{
    const int intervals = own - 1;
    const double step = (max - min) / intervals;
    const bool round = isRoundStep(step);
    for (int count = std::min(fits, own); count > 2; --count) {
        if (intervals % (count - 1) != 0)
            continue;
        const int stepsPerTick = intervals / (count - 1);  // exact: the count divides
        if (!round || isRoundStep(step * stepsPerTick))
            return {count, max};
    }
    if (round) {
        for (double coarse = nextRoundStep(step);; coarse = nextRoundStep(coarse)) {
            const int n = static_cast<int>(std::ceil((max - min) / coarse - 1e-9));
            if (n < 2)
                break;
            if (n + 1 <= fits)
                return {n + 1, min + n * coarse};
        }
        return {2, max};
    }
    for (int multiple : {2, 5, 10}) {
        const int coarse = (intervals + multiple - 1) / multiple;
        if (coarse + 1 <= fits && coarse >= 2)
            return {coarse + 1, min + coarse * multiple * step};
    }
    return {2, max};
}

// A value as `axis` labels it: its printf format ("%.2f", "%d") or Qt's default.
QString labelText(const QValueAxis* axis, double value)
{
    const QString format = axis->labelFormat();
    if (format.isEmpty())
        return QString::number(value);
    static const QRegularExpression integer(QStringLiteral("%[-+ #0-9]*[di]"));
    if (integer.match(format).hasMatch()) {
        QString wide = format;
        wide.replace(integer, QStringLiteral("%lld"));
        return QString::asprintf(wide.toLatin1().constData(), static_cast<long long>(value));
    }
    return QString::asprintf(format.toLatin1().constData(), value);
}

// How many of `axis`'s labels fit along `plot` from `low` to `high` (at least 2): a line and a
// half each upright, the wider end label and a gap across.
int labelsThatFit(const QValueAxis* axis, const QRectF& plot, double low, double high)
{
    const QFontMetricsF metrics(axis->labelsFont());
    const bool vertical = axis->orientation() == Qt::Vertical;
    const double each = vertical ? 1.5 * metrics.height()
                                 : 1.4 * std::max(metrics.horizontalAdvance(labelText(axis, high)),
                                                  metrics.horizontalAdvance(labelText(axis, low)));
    const double length = vertical ? plot.height() : plot.width();
    return std::max(2, static_cast<int>(length / each) + 1);
}

const char* const kOwnInterval = "logitlabOwnInterval";        // a dynamic axis's own interval
const char* const kFittedInterval = "logitlabFittedInterval";  // and the one fitted to the room

// Whole-number ticks around bars (dynamic, anchored at 0): the interval grows to the next round
// step until the labels fit (nine-digit ULP counts at 8.5 cm), and is the chart's own again with
// room.
void fitDynamicTicks(QValueAxis* axis, const QRectF& plot)
{
    if (axis->tickInterval() != axis->property(kFittedInterval).toDouble())
        axis->setProperty(kOwnInterval, axis->tickInterval());
    const double own = axis->property(kOwnInterval).toDouble();
    if (!(own > 0.0))
        return;
    const double fits = labelsThatFit(axis, plot, axis->min(), axis->max());
    double step = own;
    for (int i = 0; i < 60 && (axis->max() - axis->min()) / step + 1.0 > fits; ++i)
        step = isRoundStep(step) ? nextRoundStep(step) : 2.0 * step;
    axis->setProperty(kFittedInterval, step);
    if (axis->tickInterval() != step)
        axis->setTickInterval(step);
}

// The ticks that fit `axis` on `plot` for the chart's own choice (`own` ticks from `min` up to
// `ownMax`).
Ticks ticksFor(const QValueAxis* axis, const QRectF& plot, int own, double min, double ownMax)
{
    const int fits = labelsThatFit(axis, plot, min, ownMax);
    // Too many ticks for the room: Qt Charts would shorten every label to "...".
    return own <= fits ? Ticks{own, ownMax} : fittedTicks(own, min, ownMax, fits);
}

// Shows `ticks` and records them as fitted; only what differs is set (each change of an axis's
// tick count or range is a relayout of the whole chart).
void applyTicks(QValueAxis* axis, double min, const Ticks& ticks)
{
    axis->setProperty(kFittedTicks, ticks.count);
    axis->setProperty(kFittedMax, ticks.max);
    if (axis->min() != min || axis->max() != ticks.max)
        axis->setRange(min, ticks.max);
    if (axis->tickCount() != ticks.count)
        axis->setTickCount(ticks.count);
}

const char* const kOwnBase = "logitlabOwnBase";        // the log base the chart's code chose
const char* const kFittedBase = "logitlabFittedBase";  // what fitLogTicks() set instead
const char* const kOwnMinor = "logitlabOwnMinor";      // and its minor ticks
const char* const kFittedMinor = "logitlabFittedMinor";

// A log axis labels every power of its base: over 14 decades, 15 labels, each "1e-09", which Qt
// Charts shortens to "1..." on a narrow plot. With too little room the base becomes a power of
// the chart's own (10 -> 100 -> 1000), so fewer, whole-decade labels show in full.
void fitLogTicks(QLogValueAxis* axis, const QRectF& plot)
{
    if (!(axis->min() > 0) || !(axis->max() > axis->min()))
        return;
    if (axis->base() != axis->property(kFittedBase).toDouble())
        axis->setProperty(kOwnBase, axis->base());
    const double own = axis->property(kOwnBase).toDouble();
    if (!(own > 1))
        return;
    const QFontMetricsF metrics(axis->labelsFont());
    const bool vertical = axis->orientation() == Qt::Vertical;
    const QString widest = QString::asprintf(axis->labelFormat().toLatin1().constData(), axis->min());
    const double each = vertical ? 1.5 * metrics.height() + 10.0 : 1.4 * metrics.horizontalAdvance(widest) + 10.0;
    const double length = vertical ? plot.height() : plot.width();
    const int fits = std::max(2, static_cast<int>(length / each) + 1);
    const double steps = std::log(axis->max() / axis->min()) / std::log(own);
    const int power = std::max(1, static_cast<int>(std::ceil(steps / (fits - 1))));
    const double base = std::pow(own, power);
    axis->setProperty(kFittedBase, base);
    if (axis->base() != base)
        axis->setBase(base);
    // Minor ticks at 2..base-1 (count -1) would draw 98 lines between labels of base 100: the
    // chart's own minor ticks show with its own base only.
    if (axis->minorTickCount() != axis->property(kFittedMinor).toInt())
        axis->setProperty(kOwnMinor, axis->minorTickCount());
    const int minor = base == own ? axis->property(kOwnMinor).toInt() : 0;
    axis->setProperty(kFittedMinor, minor);
    if (axis->minorTickCount() != minor)
        axis->setMinorTickCount(minor);
}

}  // namespace

void fitValueTicks(QChart* chart)
{
    const QRectF plot = chart->plotArea();
    if (plot.isEmpty())
        return;
    for (QAbstractAxis* a : chart->axes()) {
        if (auto* log = qobject_cast<QLogValueAxis*>(a))
            fitLogTicks(log, plot);
        auto* axis = qobject_cast<QValueAxis*>(a);
        if (axis == nullptr || !(axis->max() > axis->min()))
            continue;
        // Whole numbers around bars (setWholeNumberTicks with a pad): the range stays, the
        // interval grows.
        if (axis->tickType() == QValueAxis::TicksDynamic) {
            fitDynamicTicks(axis, plot);
            continue;
        }
        // A count or an end other than the one set here is the chart's own choice (a rebuild).
        if (axis->tickCount() != axis->property(kFittedTicks).toInt())
            axis->setProperty(kOwnTicks, axis->tickCount());
        if (axis->max() != axis->property(kFittedMax).toDouble())
            axis->setProperty(kOwnMax, axis->max());
        const double min = axis->min();
        applyTicks(axis, min,
                   ticksFor(axis, plot, axis->property(kOwnTicks).toInt(), min, axis->property(kOwnMax).toDouble()));
    }
}

void setValueAxisTicks(QChart* chart, QValueAxis* axis, double min, double max, int ticks)
{
    axis->setProperty(kOwnTicks, ticks);
    axis->setProperty(kOwnMax, max);
    const QRectF plot = chart->plotArea();
    if (plot.isEmpty() || !(max > min)) {
        axis->setRange(min, max);
        axis->setTickCount(ticks);
        return;
    }
    applyTicks(axis, min, ticksFor(axis, plot, ticks, min, max));
}

void setWholeNumberTicks(QValueAxis* axis, double low, double high, int most, double pad)
{
    if (!std::isfinite(low) || !std::isfinite(high) || high < low) {
        low = 0.0;  // nothing to show: one unit, rather than a search that never ends
        high = 1.0;
    }
    most = std::max(most, 2);
    // Steps of 1, 2, 5, 10, 20, 50, ...: the first whose ticks number at most `most`.
    double step = 1.0;
    for (int i = 0; std::ceil(high / step) - std::floor(low / step) + 1.0 > most; ++i)
        step *= i % 3 == 1 ? 2.5 : 2.0;
    axis->setLabelFormat(QStringLiteral("%d"));
    if (pad > 0.0) {
        // Bars centred on whole numbers: the range runs half a bar past the ends, so fixed ticks
        // (which start at the range's end) would fall between bars; dynamic ones anchored at 0
        // stay on the numbers. The range is set once with them, so the interval fits it.
        axis->setRange(low - pad, high + pad);
        axis->setTickType(QValueAxis::TicksDynamic);
        axis->setTickAnchor(0.0);
        axis->setTickInterval(step);
        return;
    }
    const double min = std::floor(low / step) * step;
    const double max = std::max(std::ceil(high / step) * step, min + step);
    axis->setTickType(QValueAxis::TicksFixed);
    axis->setRange(min, max);
    axis->setTickCount(static_cast<int>(std::lround((max - min) / step)) + 1);
}

void styleChart(QChart* chart, const QPalette& palette)
{
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundRoundness(0);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(8, 8, 8, 8));
    setChartFonts(chart, QApplication::font());
    keepTicksFitted(chart);
    setChartColours(chart, palette);
}

void keepTicksFitted(QChart* chart)
{
    // Once per chart: refit the ticks whenever the plot's size changes.
    if (chart->property("logitlabFitsTicks").toBool())
        return;
    chart->setProperty("logitlabFitsTicks", true);
    QObject::connect(chart, &QChart::plotAreaChanged, chart, [chart] { fitValueTicks(chart); });
    // A rebuild that sets its own tick count is fitted again, after it (queued).
    for (QAbstractAxis* axis : chart->axes())
        if (auto* value = qobject_cast<QValueAxis*>(axis))
            QObject::connect(
                value, &QValueAxis::tickCountChanged, chart, [chart] { fitValueTicks(chart); }, Qt::QueuedConnection);
}

void setChartColours(QChart* chart, const QPalette& palette)
{
    const QColor text = palette.color(QPalette::WindowText);
    QColor grid = text;
    grid.setAlphaF(0.15);
    chart->setBackgroundBrush(palette.color(QPalette::Base));
    chart->setTitleBrush(text);
    chart->legend()->setLabelColor(text);
    // Values printed above bars are text on the chart's background (Qt's default is white,
    // meant for labels inside a bar, and vanished on a white chart).
    for (QAbstractSeries* series : chart->series())
        if (auto* bars = qobject_cast<QAbstractBarSeries*>(series))
            for (QBarSet* set : bars->barSets())
                set->setLabelColor(text);
    for (QAbstractAxis* axis : chart->axes()) {
        axis->setLabelsColor(text);
        axis->setTitleBrush(text);
        axis->setLinePenColor(text);
        axis->setGridLineColor(grid);
    }
}

void setChartFonts(QChart* chart, const QFont& base)
{
    // A little larger than the window's text: a chart is read from further away (a projector,
    // a figure shrunk into a column).
    QFont text = base;
    text.setPointSizeF(base.pointSizeF() * 1.1);
    QFont title = base;
    title.setBold(true);
    title.setPointSizeF(base.pointSizeF() * 1.15);
    chart->setTitleFont(title);
    chart->legend()->setFont(text);
    for (QAbstractAxis* axis : chart->axes()) {
        axis->setLabelsFont(text);
        axis->setTitleFont(text);
    }
}

}  // namespace logitlab::ui
