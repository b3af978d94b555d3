// Chart styling shared by every chart: fonts follow the application font, and value axes whose
// ticks would crowd their labels (Qt Charts then prints "..." for every label) take a coarser
// round interval, going back to the chart's own ticks when there is room again.
#include "batch_invariance_charts.h"
#include "chart_lifetime.h"
#include "chart_style.h"

#include <QApplication>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QFontMetricsF>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPalette>
#include <QTest>
#include <QValueAxis>

#include <cmath>
#include <memory>

using namespace logitlab::ui;

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
        auto* chart = new QChart;
        auto* series = new QLineSeries;
        series->append({{0.0, 0.0}, {1.0, 0.7}});
        chart->addSeries(series);
        auto* x = new QValueAxis;
        auto* y = new QValueAxis;
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        series->attachAxis(x);
        series->attachAxis(y);
        y->setRange(0.0, 0.7);
        y->setTickCount(8);
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
            QVERIFY2(std::abs(interval - 0.2) < 1e-12 || std::abs(interval - 0.5) < 1e-12 || std::abs(interval - 1.0) < 1e-12,
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
        QVERIFY2(labels * width < chart->plotArea().width(),
                 qPrintable(QStringLiteral("%1 labels of %2 px on %3 px").arg(labels).arg(width).arg(chart->plotArea().width())));
        QCOMPARE(std::fmod(std::log10(x->base()), 1.0), 0.0);  // whole decades
        QCOMPARE(x->minorTickCount(), 0);                       // not 2..99 between labels
        view.resize(1900, 600);
        QTRY_COMPARE(x->base(), 10.0);
        QCOMPARE(x->minorTickCount(), -1);
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
