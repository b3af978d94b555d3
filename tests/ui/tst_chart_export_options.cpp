// Issue 15 (for the paper): a chart exported by physical size. The written files are read back:
// the PNG has the pixel size asked (inches x DPI, rounded to the nearest pixel), the PDF's
// MediaBox the asked size in points (Qt keeps custom pages in whole points), the SVG the asked
// width and height in the asked unit; the fonts are 7-9 pt for a one-column figure and scale
// with the font scale; the background is white or transparent; the screen look comes back.
#include "charts/chart_export.h"
#include "charts/chart_export_style.h"
#include "charts/chart_style.h"
#include "charts/figure_legend.h"
#include "support/test_support.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QFile>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPalette>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>
#include <QValueAxis>

#include <cmath>

using namespace logitlab;
using ui::ChartExportOptions;
using ui::LengthUnit;

namespace {

using logitlab::test::readAll;

// A line chart with a title, a legend and two titled axes: every font the export sets.
std::unique_ptr<QChart> lineChart()
{
    auto chart = std::make_unique<QChart>();
    chart->setTitle(QStringLiteral("Temperature sweep"));
    auto* series = new QLineSeries;
    series->setName(QStringLiteral("p(top token)"));
    for (int i = 0; i <= 10; ++i)
        series->append(0.3 * i, 1.0 / (1.0 + 0.3 * i));
    chart->addSeries(series);
    auto* x = new QValueAxis;
    x->setTitleText(QStringLiteral("temperature T"));
    auto* y = new QValueAxis;
    y->setTitleText(QStringLiteral("probability"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    return chart;
}

ChartExportOptions options(double width, double height, LengthUnit unit, int dpi = 300, double fontScale = 1.0)
{
    ChartExportOptions o;
    o.width = width;
    o.height = height;
    o.unit = unit;
    o.dpi = dpi;
    o.fontScale = fontScale;
    return o;
}

// Every font the export sets, in points.
QList<double> chartFontPoints(QChart* chart)
{
    QList<double> points{chart->titleFont().pointSizeF(), chart->legend()->font().pointSizeF()};
    for (QAbstractAxis* axis : chart->axes())
        points << axis->labelsFont().pointSizeF() << axis->titleFont().pointSizeF();
    return points;
}

}  // namespace

class TestChartExportOptions : public QObject {
    Q_OBJECT

private slots:
    void pngPixelSize_data()
    {
        QTest::addColumn<double>("width");
        QTest::addColumn<double>("height");
        QTest::addColumn<QString>("unit");
        QTest::addColumn<int>("dpi");
        QTest::addColumn<QSize>("pixels");
        // 8.5 cm = 3.3465 in; x 300 = 1003.94 -> 1004; 6 cm x 300 / 2.54 = 708.66 -> 709.
        QTest::newRow("one column 300 dpi") << 8.5 << 6.0 << "cm" << 300 << QSize(1004, 709);
        QTest::newRow("two columns 600 dpi") << 17.0 << 8.0 << "cm" << 600 << QSize(4016, 1890);
        QTest::newRow("inches 96 dpi") << 3.3 << 2.4 << "in" << 96 << QSize(317, 230);
        QTest::newRow("inches 150 dpi") << 4.0 << 3.0 << "in" << 150 << QSize(600, 450);
    }
    void pngPixelSize()
    {
        QFETCH(double, width);
        QFETCH(double, height);
        QFETCH(QString, unit);
        QFETCH(int, dpi);
        QFETCH(QSize, pixels);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("c.png"));
        const auto chart = lineChart();
        QCOMPARE(ui::exportChart(chart.get(), path, ui::ChartFormat::Png, app::Provenance(QStringLiteral("t")),
                                 options(width, height, *ui::lengthUnitFromName(unit), dpi)),
                 QString());
        const QImage image(path);
        QCOMPARE(image.size(), pixels);
        QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), dpi);
    }

    void pdfPageSize_data()
    {
        QTest::addColumn<double>("width");
        QTest::addColumn<double>("height");
        QTest::addColumn<QString>("unit");
        QTest::newRow("one column") << 8.5 << 6.0 << "cm";
        QTest::newRow("two columns") << 17.0 << 8.0 << "cm";
        QTest::newRow("inches") << 3.3 << 2.4 << "in";
    }
    void pdfPageSize()
    {
        QFETCH(double, width);
        QFETCH(double, height);
        QFETCH(QString, unit);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("c.pdf"));
        const auto chart = lineChart();
        const ChartExportOptions o = options(width, height, *ui::lengthUnitFromName(unit));
        QCOMPARE(ui::exportChart(chart.get(), path, ui::ChartFormat::Pdf, app::Provenance(QStringLiteral("t")), o),
                 QString());
        const QRegularExpressionMatch box =
            QRegularExpression(QStringLiteral("/MediaBox \\[0 0 ([0-9.]+) ([0-9.]+)\\]"))
                .match(QString::fromLatin1(readAll(path)));
        QVERIFY(box.hasMatch());
        // Qt stores a custom page in whole points: within half a point of the asked size.
        QVERIFY2(std::abs(box.captured(1).toDouble() - o.widthInches() * 72) <= 0.5, qPrintable(box.captured(0)));
        QVERIFY2(std::abs(box.captured(2).toDouble() - o.heightInches() * 72) <= 0.5, qPrintable(box.captured(0)));
    }

    void svgSize_data()
    {
        QTest::addColumn<double>("width");
        QTest::addColumn<double>("height");
        QTest::addColumn<QString>("unit");
        QTest::addColumn<QString>("widthAttribute");
        QTest::addColumn<QString>("heightAttribute");
        QTest::newRow("cm") << 8.5 << 6.0 << "cm"
                            << "8.5cm"
                            << "6cm";
        QTest::newRow("in") << 3.3 << 2.4 << "in"
                            << "3.3in"
                            << "2.4in";
    }
    void svgSize()
    {
        QFETCH(double, width);
        QFETCH(double, height);
        QFETCH(QString, unit);
        QFETCH(QString, widthAttribute);
        QFETCH(QString, heightAttribute);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("c.svg"));
        const auto chart = lineChart();
        const ChartExportOptions o = options(width, height, *ui::lengthUnitFromName(unit));
        QCOMPARE(ui::exportChart(chart.get(), path, ui::ChartFormat::Svg, app::Provenance(QStringLiteral("t")), o),
                 QString());
        const QString svg = QString::fromUtf8(readAll(path));
        const QRegularExpressionMatch root =
            QRegularExpression(
                QStringLiteral("<svg width=\"([^\"]*)\" height=\"([^\"]*)\"\\s+viewBox=\"0 0 ([0-9.]+) ([0-9.]+)\""))
                .match(svg);
        QVERIFY(root.hasMatch());
        QCOMPARE(root.captured(1), widthAttribute);
        QCOMPARE(root.captured(2), heightAttribute);
        // The viewBox is the same page in 96-per-inch units, so user units map to the page.
        QVERIFY(std::abs(root.captured(3).toDouble() - o.widthInches() * 96) < 0.01);
        QVERIFY(std::abs(root.captured(4).toDouble() - o.heightInches() * 96) < 0.01);
    }

    void fontsInPoints_data()
    {
        QTest::addColumn<double>("fontScale");
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        QTest::newRow("scale 1: 7-9 pt") << 1.0 << 7.0 << 9.0;
        QTest::newRow("scale 2: 14-18 pt") << 2.0 << 14.0 << 18.0;
        QTest::newRow("scale 0.5: 3.5-4.5 pt") << 0.5 << 3.5 << 4.5;
    }
    void fontsInPoints()
    {
        QFETCH(double, fontScale);
        QFETCH(double, low);
        QFETCH(double, high);
        const auto chart = lineChart();
        QFont screen = chart->titleFont();
        screen.setPointSizeF(20);  // a zoomed window: nothing of it may reach the figure
        chart->setTitleFont(screen);
        const QList<double> before = chartFontPoints(chart.get());
        {
            const ui::ChartExportStyle style(chart.get(), options(8.5, 6, LengthUnit::Cm, 300, fontScale));
            for (double points : chartFontPoints(chart.get()))
                QVERIFY2(low <= points && points <= high, qPrintable(QString::number(points)));
            // The title stands out: 1.15 times the base against the labels' 1.1 (bold too).
            QCOMPARE(chart->titleFont().pointSizeF() / chart->legend()->font().pointSizeF(), 1.15 / 1.1);
        }
        QCOMPARE(chartFontPoints(chart.get()), before);  // the screen fonts are back
    }

    void fontScaleDoubles()
    {
        const auto chart = lineChart();
        QList<double> one;
        {
            const ui::ChartExportStyle style(chart.get(), options(8.5, 6, LengthUnit::Cm, 300, 1.0));
            one = chartFontPoints(chart.get());
        }
        const ui::ChartExportStyle style(chart.get(), options(8.5, 6, LengthUnit::Cm, 300, 2.0));
        const QList<double> two = chartFontPoints(chart.get());
        QCOMPARE(two.size(), one.size());
        for (qsizetype i = 0; i < one.size(); ++i)
            QCOMPARE(two[i], 2 * one[i]);
    }

    void background_data()
    {
        QTest::addColumn<bool>("transparent");
        QTest::addColumn<int>("cornerAlpha");
        QTest::newRow("white") << false << 255;
        QTest::newRow("transparent") << true << 0;
    }
    void background()
    {
        QFETCH(bool, transparent);
        QFETCH(int, cornerAlpha);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("c.png"));
        const auto chart = lineChart();
        chart->setBackgroundBrush(QColor(0x20, 0x20, 0x20));  // a dark desktop's chart
        ChartExportOptions o = options(8.5, 6, LengthUnit::Cm, 150);
        o.transparent = transparent;
        QCOMPARE(ui::exportChart(chart.get(), path, ui::ChartFormat::Png, app::Provenance(QStringLiteral("t")), o),
                 QString());
        const QImage image(path);
        QVERIFY(!image.isNull());
        for (const QPoint corner : {QPoint(0, 0), QPoint(image.width() - 1, image.height() - 1)}) {
            const QColor pixel = image.pixelColor(corner);
            QCOMPARE(pixel.alpha(), cornerAlpha);
            if (!transparent)
                QCOMPARE(pixel, QColor(Qt::white));
        }
        QCOMPARE(chart->backgroundBrush().color(), QColor(0x20, 0x20, 0x20));  // the screen look is back
        QVERIFY(chart->isBackgroundVisible());
    }

    // A one-column figure wraps what Qt would cut with "...": no line of the title or of an
    // axis title wider than its room; lines broken by the chart stay broken.
    void wrapChartText_data()
    {
        QTest::addColumn<QString>("html");
        QTest::addColumn<double>("width");
        QTest::addColumn<int>("lines");
        QTest::newRow("fits") << QStringLiteral("Temperature sweep") << 400.0 << 1;
        QTest::newRow("two lines") << QStringLiteral("Risk of at least one junk token in an N-token reply") << 180.0
                                   << 2;
        QTest::newRow("kept break") << QStringLiteral("first line<br>second line") << 400.0 << 2;
        QTest::newRow("tag with spaces") << QStringLiteral(
                                                "drawn <span style=\"color: red\">vs expected</span> counts of tokens")
                                         << 120.0 << 2;
        QTest::newRow("one long word stays whole") << QStringLiteral("supercalifragilisticexpialidocious") << 40.0 << 1;
    }
    void wrapChartText()
    {
        QFETCH(QString, html);
        QFETCH(double, width);
        QFETCH(int, lines);
        QFont font;
        font.setPointSizeF(8.0);
        const QString wrapped = ui::wrapChartText(html, font, width);
        QTextDocument document;
        document.setHtml(wrapped);
        const QStringList shown =
            document.toPlainText().split(QChar::LineSeparator).join(QLatin1Char('\n')).split(QLatin1Char('\n'));
        QCOMPARE(shown.size(), lines);
        const QFontMetricsF metrics(font);
        for (const QString& line : shown)
            QVERIFY2(metrics.horizontalAdvance(line) <= width || !line.contains(QLatin1Char(' ')), qPrintable(line));
        // No word lost or added, and tags intact.
        QTextDocument original;
        original.setHtml(html);
        QCOMPARE(shown.join(QLatin1Char(' ')).simplified(),
                 original.toPlainText().replace(QChar::LineSeparator, QLatin1Char(' ')).simplified());
        QCOMPARE(wrapped.count(QLatin1Char('<')) - wrapped.count(QLatin1String("<br>")) -
                     wrapped.count(QLatin1String("div")),
                 html.count(QLatin1Char('<')) - html.count(QLatin1String("<br>")));
    }

    void longTitlesWrapAtOneColumn()
    {
        const auto chart = lineChart();
        const QString title = QStringLiteral("Risk of at least one junk token in an N-token reply under five presets");
        const QString yTitle = QStringLiteral("P(at least one junk token in the reply)");
        chart->setTitle(title);
        chart->axes(Qt::Vertical).first()->setTitleText(yTitle);
        QGraphicsScene scene;
        scene.addItem(chart.get());
        {
            ChartExportOptions withTitle = options(8.5, 6, LengthUnit::Cm, 300, 1.0);
            withTitle.title = true;
            ui::ChartExportStyle style(chart.get(), withTitle);
            chart->resize(8.5 / 2.54 * 96, 6 / 2.54 * 96);
            const auto relayout = [&chart] { chart->layout()->activate(); };
            relayout();
            style.fitToPage(relayout);
            QVERIFY2(chart->title().contains(QLatin1String("<br>")), qPrintable(chart->title()));
            QVERIFY(chart->title().contains(QLatin1String("align=\"center\"")));
            QVERIFY2(chart->axes(Qt::Vertical).first()->titleText().contains(QLatin1String("<br>")),
                     qPrintable(chart->axes(Qt::Vertical).first()->titleText()));
            QCOMPARE(chart->axes(Qt::Horizontal).first()->titleText(), QStringLiteral("temperature T"));  // fits
        }
        QCOMPARE(chart->title(), title);  // the screen's title is back
        QCOMPARE(chart->axes(Qt::Vertical).first()->titleText(), yTitle);
        scene.removeItem(chart.get());
    }

    // Qt's attached legend puts every entry on one row and cuts labels with "...": a figure
    // whose row would cut gets a FigureLegend with every label whole, in rows; one that fits
    // keeps Qt's. The window's legend comes back afterwards.
    // A figure has no title unless asked (the paper's caption names it): not in the SVG's text,
    // at a figure's size or at the screen's; asked for, it is there. The screen keeps its title.
    void titleOnlyWhenAsked_data()
    {
        QTest::addColumn<bool>("screenFonts");
        QTest::addColumn<bool>("title");
        QTest::newRow("figure, default") << false << false;
        QTest::newRow("figure, --title") << false << true;
        QTest::newRow("screen size, default") << true << false;
        QTest::newRow("screen size, --title") << true << true;
    }
    void titleOnlyWhenAsked()
    {
        QFETCH(bool, screenFonts);
        QFETCH(bool, title);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("c.svg"));
        const auto chart = lineChart();
        ChartExportOptions o =
            screenFonts ? ChartExportOptions::fromScreenPixels(QSize(960, 600), 300) : options(8.5, 6, LengthUnit::Cm);
        o.screenFonts = screenFonts;
        o.title = title;
        QCOMPARE(ui::exportChart(chart.get(), path, ui::ChartFormat::Svg, app::Provenance(QStringLiteral("t")), o),
                 QString());
        const QString svg = QString::fromUtf8(readAll(path));
        QVERIFY2(svg.contains(QLatin1String("temperature T")), "the axis titles are drawn either way");
        QCOMPARE(svg.contains(QLatin1String("Temperature sweep")), title);
        QCOMPARE(chart->title(), QStringLiteral("Temperature sweep"));
    }

    // A figure's key looks like what it names: Qt's legend takes each marker from its series
    // while exporting (and gives the chart its own shape back), and a wrapped legend draws a
    // line series as a stretch of its own pen (dashes kept), a scatter as a dot, bars as boxes.
    void legendMarkersFollowTheirSeries()
    {
        QGraphicsScene scene;
        const auto chart = lineChart();
        chart->legend()->setAlignment(Qt::AlignBottom);
        chart->removeAllSeries();
        const QString longName = QStringLiteral("llama.cpp: top-k=40,top-p=0.95,min-p=0.05,temperature=0.8");
        auto* dashed = new QLineSeries;
        dashed->setName(QStringLiteral("dashed ") + longName);
        dashed->setPen(QPen(Qt::red, 1.5, Qt::DashLine));
        dashed->setPointsVisible(true);
        auto* dots = new QScatterSeries;
        dots->setName(QStringLiteral("dots ") + longName);
        auto* bars = new QBarSeries;
        auto* set = new QBarSet(QStringLiteral("bars ") + longName);
        *set << 1 << 2;
        bars->append(set);
        for (QXYSeries* xy : {static_cast<QXYSeries*>(dashed), static_cast<QXYSeries*>(dots)}) {
            xy->append(0, 0);
            xy->append(1, 1);
        }
        chart->addSeries(dashed);
        chart->addSeries(dots);
        chart->addSeries(bars);
        scene.addItem(chart.get());
        const QList<QLegendMarker*> markers = chart->legend()->markers();
        QCOMPARE(markers.size(), 3);
        for (QLegendMarker* marker : markers)
            QCOMPARE(marker->shape(), QLegend::MarkerShapeDefault);
        {
            ui::ChartExportStyle style(chart.get(), options(8.5, 6, LengthUnit::Cm, 300, 1.0));
            QCOMPARE(markers[0]->shape(), QLegend::MarkerShapeFromSeries);  // the dashed line
            QCOMPARE(markers[1]->shape(), QLegend::MarkerShapeFromSeries);  // the dots
            QCOMPARE(markers[2]->shape(), QLegend::MarkerShapeDefault);     // the bars' box
            chart->resize(8.5 / 2.54 * 96, 6 / 2.54 * 96);
            const auto relayout = [&chart] { chart->layout()->activate(); };
            relayout();
            style.fitToPage(relayout);
            ui::FigureLegend* legend = nullptr;
            for (QGraphicsItem* item : chart->childItems())
                if (item->type() == ui::FigureLegend::Type)
                    legend = static_cast<ui::FigureLegend*>(item);
            QVERIFY2(legend, "three long labels wrap into rows");
            const QList<ui::FigureLegend::Entry> entries = legend->entries();
            QCOMPARE(entries.size(), 3);
            QCOMPARE(entries[0].shape, ui::FigureLegend::Shape::Line);
            QCOMPARE(entries[0].pen.style(), Qt::DashLine);
            QCOMPARE(entries[0].pen.color(), QColor(Qt::red));
            QVERIFY(entries[0].points);
            QCOMPARE(entries[1].shape, ui::FigureLegend::Shape::Point);
            QCOMPARE(entries[2].shape, ui::FigureLegend::Shape::Box);
        }
        for (QLegendMarker* marker : markers)
            QCOMPARE(marker->shape(), QLegend::MarkerShapeDefault);
    }

    void legendWrapsIntoRowsWhenOneRowWouldCut_data()
    {
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<bool>("wraps");
        QTest::newRow("short, fits") << QStringList{QStringLiteral("a"), QStringLiteral("b")} << false;
        QTest::newRow("five presets") << QStringList{QStringLiteral("lesson: temperature=1,top-p=0.9"),
                                                     QStringLiteral(
                                                         "llama.cpp: top-k=40,top-p=0.95,min-p=0.05,temperature=0.8"),
                                                     QStringLiteral("hf: temperature=0.7,top-k=50"),
                                                     QStringLiteral("vllm: temperature=1,min-p=0.1"),
                                                     QStringLiteral("greedy")}
                                      << true;
    }

    void legendWrapsIntoRowsWhenOneRowWouldCut()
    {
        QFETCH(QStringList, names);
        QFETCH(bool, wraps);
        QGraphicsScene scene;  // outlives the chart, which leaves it when deleted
        const auto chart = lineChart();
        chart->legend()->setAlignment(Qt::AlignBottom);  // as chart_style.cpp puts every legend
        chart->removeAllSeries();
        for (const QString& name : names) {
            auto* series = new QLineSeries;
            series->setName(name);
            series->append(0, 0);
            series->append(1, 1);
            chart->addSeries(series);
        }
        scene.addItem(chart.get());
        const auto figureLegend = [&chart]() -> ui::FigureLegend* {
            for (QGraphicsItem* item : chart->childItems())
                if (item->type() == ui::FigureLegend::Type)
                    return static_cast<ui::FigureLegend*>(item);
            return nullptr;
        };
        {
            ui::ChartExportStyle style(chart.get(), options(8.5, 6, LengthUnit::Cm, 300, 1.0));
            chart->resize(8.5 / 2.54 * 96, 6 / 2.54 * 96);
            const auto relayout = [&chart] { chart->layout()->activate(); };
            relayout();
            style.fitToPage(relayout);
            ui::FigureLegend* legend = figureLegend();
            QCOMPARE(legend != nullptr, wraps);
            QCOMPARE(chart->legend()->isVisible(), !wraps);
            if (wraps) {
                QCOMPARE(legend->labels(), names);  // every label whole, in order
                QVERIFY(legend->rowCount() >= 2);
                // Inside the figure, below the plot and its axis labels.
                const QRectF box = legend->mapRectToParent(legend->boundingRect());
                QVERIFY2(
                    QRectF(QPointF(0, 0), chart->size()).contains(box),
                    qPrintable(
                        QStringLiteral("%1,%2 %3x%4").arg(box.x()).arg(box.y()).arg(box.width()).arg(box.height())));
                QVERIFY(box.top() > chart->plotArea().bottom());
            }
        }
        QVERIFY(figureLegend() == nullptr);
        QVERIFY(chart->legend()->isVisible());
    }

    // A dark window theme's light text would vanish on the figure's white: figures are drawn
    // with dark text, and the window's colours come back afterwards.
    void darkThemeTextIsDarkOnTheFigure()
    {
        const QPalette saved = QApplication::palette();
        QPalette dark = saved;
        dark.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
        dark.setColor(QPalette::Base, QColor(0x20, 0x20, 0x20));
        QApplication::setPalette(dark);
        const auto chart = lineChart();
        ui::styleChart(chart.get(), dark);
        QCOMPARE(chart->titleBrush().color(), QColor(0xee, 0xee, 0xee));
        {
            const ui::ChartExportStyle style(chart.get(), options(8.5, 6, LengthUnit::Cm, 300, 1.0));
            QVERIFY(chart->titleBrush().color().lightness() < 80);
            QVERIFY(chart->legend()->labelColor().lightness() < 80);
            for (QAbstractAxis* axis : chart->axes()) {
                QVERIFY(axis->labelsColor().lightness() < 80);
                QVERIFY(axis->titleBrush().color().lightness() < 80);
            }
        }
        QCOMPARE(chart->titleBrush().color(), QColor(0xee, 0xee, 0xee));
        QCOMPARE(chart->axes().first()->labelsColor(), QColor(0xee, 0xee, 0xee));
        QApplication::setPalette(saved);
    }

    void sameBytesTwice_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<bool>("screenFonts");
        for (const char* format : {"png", "svg", "pdf"}) {
            QTest::addRow("%s, fonts in points", format) << QString::fromLatin1(format) << false;
            QTest::addRow("%s, screen fonts", format) << QString::fromLatin1(format) << true;
        }
    }
    void sameBytesTwice()
    {
        QFETCH(QString, format);
        QFETCH(bool, screenFonts);
        QTemporaryDir dir;
        const auto chart = lineChart();
        // The first export of a fresh chart is the one that used to differ.
        ChartExportOptions o = options(8.5, 6, LengthUnit::Cm, 300, 1.2);
        o.screenFonts = screenFonts;
        QByteArray bytes[2];
        for (int i = 0; i < 2; ++i) {
            const QString path = dir.filePath(QStringLiteral("c%1.%2").arg(i).arg(format));
            QCOMPARE(ui::exportChart(chart.get(), path, *ui::chartFormatFromName(format),
                                     app::Provenance(QStringLiteral("t")), o),
                     QString());
            bytes[i] = readAll(path);
        }
        QVERIFY(!bytes[0].isEmpty());
        QCOMPARE(bytes[0], bytes[1]);
    }

    void badOptions_data()
    {
        QTest::addColumn<double>("width");
        QTest::addColumn<double>("height");
        QTest::addColumn<int>("dpi");
        QTest::addColumn<double>("fontScale");
        QTest::addColumn<QString>("field");
        QTest::newRow("zero width") << 0.0 << 6.0 << 300 << 1.0 << "width";
        QTest::newRow("negative height") << 8.5 << -6.0 << 300 << 1.0 << "height";
        QTest::newRow("NaN width") << std::nan("") << 6.0 << 300 << 1.0 << "width";
        QTest::newRow("dpi 95") << 8.5 << 6.0 << 95 << 1.0 << "dpi";
        QTest::newRow("dpi 601") << 8.5 << 6.0 << 601 << 1.0 << "dpi";
        QTest::newRow("font scale 0") << 8.5 << 6.0 << 300 << 0.0 << "font-scale";
        QTest::newRow("font scale NaN") << 8.5 << 6.0 << 300 << std::nan("") << "font-scale";
        QTest::newRow("good") << 8.5 << 6.0 << 300 << 1.0 << "";
    }
    void badOptions()
    {
        QFETCH(double, width);
        QFETCH(double, height);
        QFETCH(int, dpi);
        QFETCH(double, fontScale);
        QFETCH(QString, field);
        const ui::ChartOptionProblem problem =
            ui::checkChartExportOptions(options(width, height, LengthUnit::Cm, dpi, fontScale));
        QCOMPARE(problem.field, field);
        if (!field.isEmpty()) {
            QVERIFY(problem.message.startsWith(QString(field).replace(QLatin1Char('-'), QLatin1Char(' ')) +
                                               QLatin1Char(':')));
            QTemporaryDir dir;
            const QString path = dir.filePath(QStringLiteral("c.png"));
            const auto chart = lineChart();
            QCOMPARE(ui::exportChart(chart.get(), path, ui::ChartFormat::Png, app::Provenance(QStringLiteral("t")),
                                     options(width, height, LengthUnit::Cm, dpi, fontScale)),
                     problem.message);
            QVERIFY(!QFile::exists(path));
        }
    }

    void parseSize_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<double>("width");
        QTest::addColumn<double>("height");
        QTest::addColumn<QString>("unit");
        QTest::newRow("cm") << "8.5x6cm" << true << 8.5 << 6.0 << "cm";
        QTest::newRow("in, capital X, spaces") << " 3.3 X 2.4 in " << true << 3.3 << 2.4 << "in";
        QTest::newRow("no unit") << "8.5x6" << false << 0.0 << 0.0 << "";
        QTest::newRow("mm") << "85x60mm" << false << 0.0 << 0.0 << "";
        QTest::newRow("one number") << "8.5cm" << false << 0.0 << 0.0 << "";
        QTest::newRow("negative") << "-8.5x6cm" << false << 0.0 << 0.0 << "";
        QTest::newRow("nan") << "nanx6cm" << false << 0.0 << 0.0 << "";
    }
    void parseSize()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(double, width);
        QFETCH(double, height);
        QFETCH(QString, unit);
        const auto parsed = ui::parseChartSize(text);
        QCOMPARE(parsed.has_value(), ok);
        if (ok) {
            QCOMPARE(parsed->width, width);
            QCOMPARE(parsed->height, height);
            QCOMPARE(ui::lengthUnitName(parsed->unit), unit);
        }
    }
};

QTEST_MAIN(TestChartExportOptions)
#include "tst_chart_export_options.moc"
