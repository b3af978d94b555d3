// Chart styling shared by every chart: fonts follow the application font, and value axes whose
// ticks would crowd their labels (Qt Charts then prints "..." for every label) take a coarser
// round interval, going back to the chart's own ticks when there is room again.
#include "charts/bar_names.h"
#include "charts/batch_invariance_charts.h"
#include "charts/category_names.h"
#include "charts/chart_lifetime.h"
#include "charts/chart_style.h"

#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QFontMetricsF>
#include <QGraphicsSimpleTextItem>
#include <QHorizontalBarSeries>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPalette>
#include <QTest>
#include <QValueAxis>

#include <cmath>
#include <limits>
#include <memory>

using namespace logitlab::ui;

namespace {

// A line from (0, 0) to (1, top) over value axes, the y axis from 0 to `top` in `ticks` ticks.
QChart* lineChart(double top, int ticks)
{
    auto* chart = new QChart;
    auto* series = new QLineSeries;
    series->append({{0.0, 0.0}, {1.0, top}});
    chart->addSeries(series);
    auto* x = new QValueAxis;
    auto* y = new QValueAxis;
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    y->setRange(0.0, top);
    y->setTickCount(ticks);
    return chart;
}

QValueAxis* valueAxis(QChart* chart, Qt::Orientation orientation)
{
    return qobject_cast<QValueAxis*>(chart->axes(orientation).first());
}

}  // namespace

class TestChartStyle : public QObject {
    Q_OBJECT
private slots:
    // Issue 35, item 3: the gap-against-error chart's line is the flip bound gap = 2 x error.
    void flipBoundIsTwiceTheError()
    {
        std::unique_ptr<QLineSeries> line(logitlab::ui::flipBoundLine(1e-9, 1e-3));
        QCOMPARE(line->name(), QStringLiteral("gap = 2 x error"));
        QVERIFY(line->count() >= 2);
        for (const QPointF& p : line->points())
            QCOMPARE(p.y(), 2.0 * p.x());
    }

    void crowdedTicksGetARoundInterval_data()
    {
        QTest::addColumn<int>("height");
        QTest::addColumn<bool>("crowded");
        QTest::newRow("tall plot keeps 8 ticks") << 700 << false;
        QTest::newRow("short plot thins them") << 170 << true;
    }
    void crowdedTicksGetARoundInterval()
    {
        QFETCH(int, height);
        QFETCH(bool, crowded);
        auto* chart = lineChart(0.7, 8);
        auto* x = valueAxis(chart, Qt::Horizontal);
        auto* y = valueAxis(chart, Qt::Vertical);
        x->setRange(0.0, 1.0);
        x->setTickCount(3);
        styleChart(chart, QApplication::palette());
        QChartView view(chart);
        view.resize(500, height);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTRY_VERIFY(!chart->plotArea().isEmpty());
        fitValueTicks(chart);
        QCOMPARE(y->tickType(), QValueAxis::TicksFixed);
        if (crowded) {
            // 7 intervals of 0.1 divide only by 7: rather than label the ends alone, the axis
            // ends on a multiple of its step that does divide (0, 0.2, ... or 0, 0.5, 1).
            QVERIFY2(y->tickCount() >= 3, qPrintable(QString::number(y->tickCount())));
            const double interval = (y->max() - y->min()) / (y->tickCount() - 1);
            QVERIFY2(std::abs(interval - 0.2) < 1e-12 || std::abs(interval - 0.5) < 1e-12 ||
                         std::abs(interval - 1.0) < 1e-12,
                     qPrintable(QString::number(interval)));
            QVERIFY(y->max() >= 0.7);
            // A new range and count from the chart's code (a rebuild) are fitted again and never
            // explode into a tick per unit.
            y->setRange(0.0, 262144.0);
            y->setTickCount(9);
            QTRY_VERIFY(y->tickCount() < 9);
            QCOMPARE(8 % (y->tickCount() - 1), 0);  // ticks on multiples of 32,768
            view.resize(500, 700);
            QTRY_COMPARE(y->tickCount(), 9);
            QCOMPARE(y->max(), 262144.0);  // the chart's own end is back
        } else {
            QCOMPARE(y->tickCount(), 8);
        }
        QCOMPARE(x->tickCount(), 3);
    }

    // Thinned ticks keep round labels: 0..0.22 in steps of 0.01 read "0, 0.11, 0.22" on a short
    // plot (23 ticks divide by 2 and 11 only); now every interval is 1, 2 or 5 x 10^k and the
    // axis still covers the chart's own end.
    void thinnedTicksStayRound_data()
    {
        QTest::addColumn<double>("top");
        QTest::addColumn<int>("ticks");
        QTest::addColumn<int>("height");
        QTest::newRow("0..0.22 by 0.01, short") << 0.22 << 23 << 170;
        QTest::newRow("0..0.22 by 0.02, short") << 0.22 << 12 << 150;
        QTest::newRow("0..0.7 by 0.1, short") << 0.7 << 8 << 170;
        QTest::newRow("0..0.05 by 0.01, very short") << 0.05 << 6 << 110;
        QTest::newRow("0..0.22 by 0.01, tall") << 0.22 << 23 << 900;
    }
    void thinnedTicksStayRound()
    {
        QFETCH(double, top);
        QFETCH(int, ticks);
        QFETCH(int, height);
        auto* chart = lineChart(top, ticks);
        auto* y = valueAxis(chart, Qt::Vertical);
        styleChart(chart, QApplication::palette());
        QChartView view(chart);
        view.resize(500, height);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTRY_VERIFY(!chart->plotArea().isEmpty());
        fitValueTicks(chart);
        QVERIFY(y->max() >= top - 1e-12);
        QVERIFY(y->tickCount() >= 2);
        const double interval = (y->max() - y->min()) / (y->tickCount() - 1);
        const double mantissa = interval / std::pow(10.0, std::floor(std::log10(interval) + 1e-9));
        QVERIFY2(
            std::abs(mantissa - 1.0) < 1e-6 || std::abs(mantissa - 2.0) < 1e-6 || std::abs(mantissa - 5.0) < 1e-6 ||
                y->tickCount() == 2,
            qPrintable(QStringLiteral("%1 ticks to %2: interval %3").arg(y->tickCount()).arg(y->max()).arg(interval)));
    }

    // Issue 33: a log axis over 12 decades at one column's width labelled "1..." twelve times.
    // A result's chart (built by newRebuiltChart, as every export's is) labels whole decades that
    // fit, and every decade again once the plot is wide.
    void crowdedLogAxisLabelsFewerDecades()
    {
        QChart* chart = newRebuiltChart();
        auto* series = new QLineSeries;
        series->append({{1e-9, 1e-9}, {1e3, 1e3}});
        chart->addSeries(series);
        auto* x = new QLogValueAxis;
        x->setLabelFormat(QStringLiteral("%.0e"));
        x->setMinorTickCount(-1);  // 2..9 in each decade
        x->setRange(1e-9, 1e3);
        chart->addAxis(x, Qt::AlignBottom);
        series->attachAxis(x);
        QChartView view(chart);
        view.resize(330, 240);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTRY_VERIFY(x->base() > 10.0);
        const double labels = std::round(12.0 / std::log10(x->base())) + 1.0;
        const double width = QFontMetricsF(x->labelsFont()).horizontalAdvance(QStringLiteral("1e-09"));
        QVERIFY2(
            labels * width < chart->plotArea().width(),
            qPrintable(
                QStringLiteral("%1 labels of %2 px on %3 px").arg(labels).arg(width).arg(chart->plotArea().width())));
        QCOMPARE(std::fmod(std::log10(x->base()), 1.0), 0.0);  // whole decades
        QCOMPARE(x->minorTickCount(), 0);                      // not 2..99 between labels
        view.resize(1900, 600);
        QTRY_COMPARE(x->base(), 10.0);
        QCOMPARE(x->minorTickCount(), -1);
    }

    // Counts, steps and ULPs tick on whole numbers: the summation lesson's 0..1 ULP read
    // "0 0 1 1" at ticks 0, 0.5, 1, 1.5 labelled %d.
    void wholeNumberTicks_data()
    {
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        QTest::newRow("lesson: 0..1 ULP and room") << 0.0 << 1.5;
        QTest::newRow("errors -170..120") << -172.0 << 121.0;
        QTest::newRow("one run") << 0.0 << 1.0;
        QTest::newRow("200 shuffles") << 0.0 << 213.0;
        QTest::newRow("33,460 states") << 0.0 << 33460.0;
        QTest::newRow("nothing finite") << 0.0 << std::numeric_limits<double>::infinity();
    }
    void wholeNumberTicks()
    {
        QFETCH(double, low);
        QFETCH(double, high);
        QValueAxis axis;
        setWholeNumberTicks(&axis, low, high);
        QVERIFY(axis.min() <= low && (axis.max() >= high || !std::isfinite(high)));
        QVERIFY2(axis.tickCount() >= 2 && axis.tickCount() <= 7, qPrintable(QString::number(axis.tickCount())));
        const double step = (axis.max() - axis.min()) / (axis.tickCount() - 1);
        for (int i = 0; i < axis.tickCount(); ++i) {
            const double tick = axis.min() + i * step;
            QCOMPARE(tick, std::round(tick));
        }
        const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
        QVERIFY2(mantissa == 1.0 || mantissa == 2.0 || mantissa == 5.0, qPrintable(QString::number(step)));
        QCOMPARE(axis.labelFormat(), QStringLiteral("%d"));
    }

    // Names under vertical bars (BarNames): level while each fits its slot, upright when not,
    // every k-th when even an upright line is wider than a slot; never cut. The bar axis keeps
    // every category; the names follow the chart's size.
    void barNamesFitTheirSlots_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<int>("bars");
        QTest::addColumn<bool>("upright");
        QTest::addColumn<bool>("thinned");
        QTest::newRow("5 long names, wide") << QSize(900, 400) << 5 << false << false;
        QTest::newRow("5 long names, narrow") << QSize(321, 227) << 5 << true << false;
        QTest::newRow("20 ids, one column") << QSize(321, 227) << 20 << true << true;
        QTest::newRow("20 ids, wide") << QSize(1600, 500) << 20 << false << false;
    }
    void barNamesFitTheirSlots()
    {
        QFETCH(QSize, size);
        QFETCH(int, bars);
        QFETCH(bool, upright);
        QFETCH(bool, thinned);
        QChart* chart = newRebuiltChart();
        auto* set = new QBarSet(QStringLiteral("p"));
        QStringList names;
        for (int i = 0; i < bars; ++i) {
            names << (bars == 5 ? QStringLiteral("a-rather-long-name-%1").arg(i) : QString::number(109638 + 997 * i));
            *set << i + 1;
        }
        auto* series = new QBarSeries;
        series->append(set);
        chart->addSeries(series);
        auto* axis = new QBarCategoryAxis;
        axis->setCategories(names);
        axis->setTitleText(QStringLiteral("token"));
        chart->addAxis(axis, Qt::AlignBottom);
        series->attachAxis(axis);
        BarNames* shown = BarNames::attach(chart, axis);
        QChartView view(chart);
        view.resize(size);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTRY_COMPARE(shown->upright(), upright);
        QCOMPARE(shown->stride() > 1, thinned);
        QCOMPARE(axis->categories(), names);
        QVERIFY(!axis->labelsVisible());
        QStringList expected;
        for (qsizetype i = 0; i < names.size(); i += shown->stride())
            expected << names[i];
        QCOMPARE(shown->shownNames(), expected);
        // The names' axis shows the bar axis's title, and follows it.
        const auto below = chart->axes(Qt::Horizontal);
        QCOMPARE(below.size(), 2);
        auto* namesAxis = qobject_cast<QCategoryAxis*>(below.back());
        QVERIFY(namesAxis);
        QCOMPARE(namesAxis->titleText(), QStringLiteral("token"));
        axis->setTitleText(QStringLiteral("word"));
        QCOMPARE(namesAxis->titleText(), QStringLiteral("word"));
        // Wider, the same names stand level.
        view.resize(4000, 600);
        QTRY_VERIFY(!shown->upright());
        QCOMPARE(shown->shownNames(), names);
    }

    // Issue 33: 14 orders down the left of a 260 px chart read "..." (Qt Charts elides a vertical
    // category label taller than its slot less 10 px). Drawn by CategoryNames, every name shows
    // in full, beside its bar, left of the plot, none overlapping the next; a rebuild that drops
    // the axis drops the names and gives the chart its margin back.
    void categoryNamesShowInFull_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("the page at 1024x768") << QSize(460, 270);
        QTest::newRow("8.5 x 6 cm") << QSize(321, 227);
        QTest::newRow("tall") << QSize(600, 900);
    }
    void categoryNamesShowInFull()
    {
        QFETCH(QSize, size);
        QChart* chart = newRebuiltChart();
        auto* set = new QBarSet(QStringLiteral("ulps"));
        QStringList names;
        for (int i = 0; i < 14; ++i) {
            names << QStringLiteral("order-number-%1").arg(i);
            *set << i - 7;
        }
        auto* bars = new QHorizontalBarSeries;
        bars->append(set);
        chart->addSeries(bars);
        auto* axis = new QBarCategoryAxis;
        axis->setCategories(names);
        chart->addAxis(axis, Qt::AlignLeft);
        bars->attachAxis(axis);
        const int ownLeft = chart->margins().left();
        CategoryNames* shown = CategoryNames::attach(chart, axis);
        QChartView view(chart);
        view.resize(size);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTRY_COMPARE(shown->shownNames(), names);
        QVERIFY(!axis->labelsVisible());
        const QRectF plot = chart->plotArea();
        const double slot = plot.height() / names.size();
        QList<QGraphicsSimpleTextItem*> items;
        for (QGraphicsItem* child : chart->childItems())
            if (auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(child))
                items << text;
        QCOMPARE(items.size(), names.size());
        for (qsizetype i = 0; i < items.size(); ++i) {
            const QRectF box = items[i]->mapRectToParent(items[i]->boundingRect());
            QVERIFY2(box.right() <= plot.left() && box.left() >= 0, qPrintable(items[i]->text()));
            const double centre = plot.bottom() - (i + 0.5) * slot;  // category i's bar
            QVERIFY2(std::abs(box.center().y() - centre) < slot / 2, qPrintable(items[i]->text()));
            if (shown->shownPointSize() > 5.0)
                QVERIFY2(box.height() <= slot + 1.0,
                         qPrintable(QStringLiteral("%1 px in a slot of %2").arg(box.height()).arg(slot)));
        }
        chart->removeAxis(axis);
        delete axis;
        QTRY_COMPARE(chart->margins().left(), ownLeft);
        int left = 0;
        for (QGraphicsItem* child : chart->childItems())
            left += dynamic_cast<QGraphicsSimpleTextItem*>(child) != nullptr;
        QCOMPARE(left, 0);
    }

    void fontsFollowTheApplicationFont()
    {
        QChart chart;
        chart.addAxis(new QValueAxis, Qt::AlignLeft);
        QFont base = QApplication::font();
        base.setPointSizeF(20.0);
        setChartFonts(&chart, base);
        QCOMPARE(chart.titleFont().pointSizeF(), 23.0);
        QVERIFY(chart.titleFont().bold());
        QCOMPARE(chart.axes().first()->labelsFont().pointSizeF(), 22.0);
    }

    // Values printed above the bars are drawn in the palette's text colour: Qt's default
    // (white, for labels inside a bar) was invisible on the white chart, light or dark palette.
    void barValuesTakeThePaletteText_data()
    {
        QTest::addColumn<QColor>("text");
        QTest::addColumn<QColor>("base");
        QTest::newRow("light") << QColor(Qt::black) << QColor(Qt::white);
        QTest::newRow("dark") << QColor(230, 230, 230) << QColor(30, 30, 30);
    }
    void barValuesTakeThePaletteText()
    {
        QFETCH(QColor, text);
        QFETCH(QColor, base);
        QChart chart;
        auto* series = new QBarSeries;
        auto* a = new QBarSet(QStringLiteral("a"));
        auto* b = new QBarSet(QStringLiteral("b"));
        *a << 1.0;
        *b << 2.0;
        series->append(a);
        series->append(b);
        chart.addSeries(series);
        QPalette palette;
        palette.setColor(QPalette::WindowText, text);
        palette.setColor(QPalette::Base, base);
        styleChart(&chart, palette);
        QCOMPARE(a->labelColor(), text);
        QCOMPARE(b->labelColor(), text);
    }
};

QTEST_MAIN(TestChartStyle)
#include "tst_chart_style.moc"
