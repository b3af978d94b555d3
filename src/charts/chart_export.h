// Writes a chart as PNG (at a chosen DPI), SVG (text kept as text, viewBox set) or PDF (vector,
// fonts embedded), each carrying the run's provenance in its metadata. Shared by every page,
// the headless demo and `logitlab-cli run`.
#pragma once

#include "provenance.h"

#include <QImage>
#include <QSize>
#include <QString>

#include <optional>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace logitlab::ui {

enum class ChartFormat { Png, Svg, Pdf };

// "png", "svg", "pdf" (any case); nothing for other names.
std::optional<ChartFormat> chartFormatFromName(const QString& name);
QString chartFormatName(ChartFormat format);

// Renders `chart` at `size` logical pixels (96 per inch) and saves it atomically to `path`.
// `dpi` (96..600) applies to PNG. Returns an empty string on success, else a message; on
// failure an existing file at `path` is left untouched. The chart's on-screen size is restored.
// The chart as an image at `dpi` (for Edit > Copy chart image), white background.
QImage chartImage(QChart* chart, int dpi = 192, QSize size = QSize(960, 600));

QString exportChart(QChart* chart, const QString& path, ChartFormat format, const app::Provenance& provenance,
                    int dpi = 300, QSize size = QSize(960, 600));

}  // namespace logitlab::ui
