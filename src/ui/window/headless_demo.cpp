#include "ui/window/headless_demo.h"

#include "app/io/save_text.h"
#include "app/kinds/result_table.h"
#include "charts/chart_export.h"
#include "ui/pages/explorer_page.h"

#include <QDir>

namespace logitlab::ui {

DemoResult runHeadlessDemo(const QString& outDir)
{
    DemoResult result;
    if (!QDir().mkpath(outDir)) {
        result.error = QStringLiteral("%1: cannot create the folder").arg(outDir);
        return result;
    }
    // The explorer page at its defaults is the lesson's example: T = 1, top-p = 0.9.
    ExplorerPage page;
    const QDir dir(outDir);
    const QString base = dir.filePath(QStringLiteral("lesson-probabilities"));
    for (ChartFormat format : {ChartFormat::Png, ChartFormat::Svg, ChartFormat::Pdf}) {
        const QString path = base + QLatin1Char('.') + chartFormatName(format);
        // The one-column figure a paper would take (8.5 cm x 6 cm, 300 dpi, 7-9 pt text).
        result.error = exportChart(page.chart(), path, format, page.provenance(), ChartExportOptions{});
        if (!result.error.isEmpty())
            return result;
        result.written << path;
    }
    // The table through the one CSV writer, so it has the columns and bytes `logitlab-cli run`
    // writes for the same state file.
    const QString csv = base + QStringLiteral(".csv");
    result.error = app::saveText(csv, app::resultTableCsv(page.provenance(), *page.resultTable()));
    if (result.error.isEmpty())
        result.written << csv;
    return result;
}

}  // namespace logitlab::ui
