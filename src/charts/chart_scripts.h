// A chart as a script a researcher can restyle: a matplotlib script (`--formats py`) and a
// pgfplots file (`--formats tex`), each reading the chart's data from the CSV written beside it
// (chart_data.h) and drawing the same series (lines dashed as on screen, scatter points, bands,
// grouped bars) with the same colours, axis titles, ranges and log scales, at the export's size.
// The Python script writes <its name>.pdf next to itself (or the path given as its argument);
// `--dump` also prints each series' y values as JSON, which the tests compare with the CSV.
#pragma once

#include "app/io/provenance.h"
#include "charts/chart_data.h"
#include "charts/chart_export.h"

#include <QString>

namespace logitlab::ui {

// `csvName`: the data file's name, in the script's folder.
QString matplotlibScript(const ChartData& data, const QString& csvName, const ChartExportOptions& options,
                         const app::Provenance& provenance);
QString pgfplotsFile(const ChartData& data, const QString& csvName, const ChartExportOptions& options,
                     const app::Provenance& provenance);

// LaTeX text for `text`: # $ % & _ { } ~ ^ \ escaped.
QString latexEscaped(const QString& text);

}  // namespace logitlab::ui
