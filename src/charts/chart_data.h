// A chart's data and style read back from the QChart an experiment's builder made, so a figure
// can be re-plotted elsewhere: each series (line, scatter, band, bars, box plots) with its name,
// colour, dashes and values, the axes' titles, ranges and log scales, and a bar chart's
// categories. `logitlab-cli run --formats py,tex` writes it as <name><chart>-data.csv beside a
// matplotlib script and a pgfplots file that read it (chart_scripts.h).
#pragma once

#include "app/io/provenance.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace logitlab::ui {

struct ChartAxisData {
    QString title;
    bool log = false;
    std::optional<double> min;  // unset for a category axis
    std::optional<double> max;
};

struct ChartSeriesData {
    enum class Kind { Line, Scatter, Band, Bar, HorizontalBar, Box };
    // A box's five numbers, in the order of `box` below.
    static constexpr const char* kBoxStatistics[5] = {"min", "q1", "median", "q3", "max"};
    QString name;
    Kind kind = Kind::Line;
    QString color;  // "#rrggbb"
    bool dashed = false;
    // Points: x (a category index for bars and boxes), y, and for a band its lower edge; a box
    // is five points at its category, `box` saying which number each is (kBoxStatistics).
    std::vector<double> x;
    std::vector<double> y;
    std::vector<double> lower;
    std::vector<int> box;
};

struct ChartData {
    QString title;
    ChartAxisData xAxis;
    ChartAxisData yAxis;
    QStringList categories;  // a bar chart's categories, in order (x = their index)
    std::vector<ChartSeriesData> series;
};

ChartData chartData(QChart* chart);
QString seriesKindName(ChartSeriesData::Kind kind);  // "line", "scatter", "band", "bar", "barh", "box"

// Long form, one row per point: series (its name), si (its index), kind ("box-median" and so on
// for a box's numbers), x, xi (a category's index; empty otherwise), y, y2 (a band's lower
// edge), under the run's provenance.
QString chartDataCsv(const ChartData& data, const app::Provenance& provenance);

}  // namespace logitlab::ui
