#include "charts/chart_data.h"

#include "app/io/csv_writer.h"

#include <QAbstractAxis>
#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QChart>
#include <QHorizontalBarSeries>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QTextDocumentFragment>
#include <QValueAxis>

namespace logitlab::ui {

namespace {

// Chart labels are HTML (token_display.h escapes them): the data carries the plain text.
QString plain(const QString& html) { return QTextDocumentFragment::fromHtml(html).toPlainText(); }

ChartAxisData axisData(QAbstractAxis* axis)
{
    ChartAxisData data;
    if (!axis)
        return data;
    data.title = plain(axis->titleText());
    if (auto* value = qobject_cast<QValueAxis*>(axis)) {
        data.min = value->min();
        data.max = value->max();
    } else if (auto* log = qobject_cast<QLogValueAxis*>(axis)) {
        data.log = true;
        data.min = log->min();
        data.max = log->max();
    }
    return data;
}

QAbstractAxis* firstAxis(QChart* chart, Qt::Orientation orientation)
{
    const auto axes = chart->axes(orientation);
    return axes.isEmpty() ? nullptr : axes.front();
}

void addPoints(ChartSeriesData& s, const QList<QPointF>& points)
{
    for (const QPointF& p : points) {
        s.x.push_back(p.x());
        s.y.push_back(p.y());
    }
}

}  // namespace

QString seriesKindName(ChartSeriesData::Kind kind)
{
    switch (kind) {
    case ChartSeriesData::Kind::Scatter:
        return QStringLiteral("scatter");
    case ChartSeriesData::Kind::Band:
        return QStringLiteral("band");
    case ChartSeriesData::Kind::Bar:
        return QStringLiteral("bar");
    case ChartSeriesData::Kind::HorizontalBar:
        return QStringLiteral("barh");
    case ChartSeriesData::Kind::Box:
        return QStringLiteral("box");
    case ChartSeriesData::Kind::Line:
        break;
    }
    return QStringLiteral("line");
}

ChartData chartData(QChart* chart)
{
    ChartData data;
    data.title = plain(chart->title());
    bool horizontalBars = false;
    for (QAbstractSeries* series : chart->series())
        horizontalBars = horizontalBars || qobject_cast<QHorizontalBarSeries*>(series) != nullptr;
    // A horizontal bar chart's categories run up the vertical axis; x is then the value axis.
    data.xAxis = axisData(firstAxis(chart, Qt::Horizontal));
    data.yAxis = axisData(firstAxis(chart, Qt::Vertical));
    if (auto* categories =
            qobject_cast<QBarCategoryAxis*>(firstAxis(chart, horizontalBars ? Qt::Vertical : Qt::Horizontal)))
        for (const QString& c : categories->categories())
            data.categories << plain(c);

    for (QAbstractSeries* series : chart->series()) {
        if (!series->isVisible())
            continue;
        if (auto* area = qobject_cast<QAreaSeries*>(series)) {
            ChartSeriesData s;
            s.kind = ChartSeriesData::Kind::Band;
            s.name = plain(area->name());
            s.color = area->brush().color().name();
            addPoints(s, area->upperSeries()->points());
            if (area->lowerSeries())
                for (const QPointF& p : area->lowerSeries()->points())
                    s.lower.push_back(p.y());
            s.lower.resize(s.y.size(), 0.0);
            data.series.push_back(std::move(s));
        } else if (auto* xy = qobject_cast<QXYSeries*>(series)) {
            ChartSeriesData s;
            s.kind =
                qobject_cast<QScatterSeries*>(series) ? ChartSeriesData::Kind::Scatter : ChartSeriesData::Kind::Line;
            s.name = plain(xy->name());
            s.color = xy->color().name();
            s.dashed = xy->pen().style() != Qt::SolidLine && s.kind == ChartSeriesData::Kind::Line;
            addPoints(s, xy->points());
            if (!s.y.empty())  // an empty series (a reply with no junk step) has nothing to re-plot
                data.series.push_back(std::move(s));
        } else if (auto* boxes = qobject_cast<QBoxPlotSeries*>(series)) {
            ChartSeriesData s;
            s.kind = ChartSeriesData::Kind::Box;
            s.name = plain(boxes->name());
            s.color = boxes->brush().color().name();
            const QList<QBoxSet*> sets = boxes->boxSets();
            for (qsizetype i = 0; i < sets.size(); ++i)
                for (const int stat : {QBoxSet::LowerExtreme, QBoxSet::LowerQuartile, QBoxSet::Median,
                                       QBoxSet::UpperQuartile, QBoxSet::UpperExtreme}) {
                    s.x.push_back(static_cast<double>(i));
                    s.y.push_back(sets[i]->at(stat));
                    s.box.push_back(stat);
                }
            data.series.push_back(std::move(s));
        } else if (auto* bars = qobject_cast<QAbstractBarSeries*>(series)) {
            for (QBarSet* set : bars->barSets()) {
                ChartSeriesData s;
                s.kind = horizontalBars ? ChartSeriesData::Kind::HorizontalBar : ChartSeriesData::Kind::Bar;
                s.name = plain(set->label());
                s.color = set->color().name();
                for (int i = 0; i < set->count(); ++i) {
                    s.x.push_back(i);
                    s.y.push_back(set->at(i));
                }
                data.series.push_back(std::move(s));
            }
        }
    }
    return data;
}

QString chartDataCsv(const ChartData& data, const app::Provenance& provenance)
{
    app::CsvWriter csv(provenance,
                       {QStringLiteral("series"), QStringLiteral("si"), QStringLiteral("kind"), QStringLiteral("x"),
                        QStringLiteral("xi"), QStringLiteral("y"), QStringLiteral("y2")});
    for (std::size_t si = 0; si < data.series.size(); ++si) {
        const ChartSeriesData& s = data.series[si];
        const bool bars = s.kind == ChartSeriesData::Kind::Bar || s.kind == ChartSeriesData::Kind::HorizontalBar ||
                          s.kind == ChartSeriesData::Kind::Box;
        for (std::size_t i = 0; i < s.y.size(); ++i) {
            const auto index = static_cast<qsizetype>(s.x[i]);
            const QString x = bars && index >= 0 && index < data.categories.size() ? data.categories[index]
                                                                                   : app::CsvWriter::number(s.x[i]);
            const QString kind =
                s.kind == ChartSeriesData::Kind::Box
                    ? QStringLiteral("box-%1").arg(QLatin1String(ChartSeriesData::kBoxStatistics[s.box[i]]))
                    : seriesKindName(s.kind);
            csv.addRow({s.name, QString::number(si), kind, x, bars ? QString::number(index) : QString(),
                        app::CsvWriter::number(s.y[i]),
                        s.kind == ChartSeriesData::Kind::Band ? app::CsvWriter::number(s.lower[i]) : QString()});
        }
    }
    return csv.text();
}

}  // namespace logitlab::ui
