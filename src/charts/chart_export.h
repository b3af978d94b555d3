// Writes a chart as PNG (at a chosen DPI), SVG (text kept as text, viewBox set) or PDF (vector,
// fonts embedded), each carrying the run's provenance in its metadata. Shared by every page,
// the export dialog, the headless demo and `logitlab-cli run`. A figure for a paper is asked for
// by its physical size (cm or inches): its fonts are then set in points for that page, so an
// 8.5 cm one-column figure keeps its text at 7-9 pt instead of shrinking the window's fonts.
#pragma once

#include "app/io/provenance.h"

#include <QImage>
#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace logitlab::ui {

enum class ChartFormat { Png, Svg, Pdf };

// "png", "svg", "pdf" (any case); nothing for other names.
std::optional<ChartFormat> chartFormatFromName(const QString& name);
QString chartFormatName(ChartFormat format);

enum class LengthUnit { Cm, Inch };

// "cm" or "in"; the unit for `--size 8.5x6cm` and the dialog's unit choice.
QString lengthUnitName(LengthUnit unit);
std::optional<LengthUnit> lengthUnitFromName(const QString& name);

// How a chart is exported. The defaults are a one-column figure: 8.5 cm x 6 cm, 300 DPI,
// fonts at 1x the figure size, white background.
struct ChartExportOptions {
    double width = 8.5;   // in `unit`
    double height = 6.0;  // in `unit`
    LengthUnit unit = LengthUnit::Cm;
    int dpi = 300;           // PNG only: pixels = inches x dpi (rounded to nearest)
    double fontScale = 1.0;  // 1: base text 6.5 pt (labels 7.15 pt, title 8.45 pt)
    bool transparent = false;
    // The chart's title on the figure. Off by default: a paper's caption says what a figure
    // shows, and a one-column figure has no room for both (`--title`, the dialog's box).
    bool title = false;
    // True: the chart keeps its on-screen fonts (the old pixel-sized export, `run` without
    // --size/--font-scale); false: fonts are set in points for the physical page.
    bool screenFonts = false;

    static constexpr int kMinDpi = 96;
    static constexpr int kMaxDpi = 600;
    static constexpr double kMinFontScale = 0.5;
    static constexpr double kMaxFontScale = 3.0;
    // Limits of a side: 1 cm .. 100 cm (whatever the unit).
    static constexpr double kMinSideInches = 1.0 / 2.54;
    static constexpr double kMaxSideInches = 100.0 / 2.54;
    // The base font (before the title's 1.3x and the labels' 1.1x) at font scale 1.
    static constexpr double kBasePoints = 6.5;

    double widthInches() const { return unit == LengthUnit::Cm ? width / 2.54 : width; }
    double heightInches() const { return unit == LengthUnit::Cm ? height / 2.54 : height; }
    // The PNG's pixel size: inches x dpi, each rounded to the nearest pixel.
    QSize pixelSize() const;
    // The old export size: `size` logical pixels (96 per inch) with the on-screen fonts.
    static ChartExportOptions fromScreenPixels(QSize size, int dpi);
};

// Which field of `options` is wrong and why ("width: must be between ..."), empty when all are
// fine. Keys: width, height, dpi, font scale.
struct ChartOptionProblem {
    QString field;  // "width", "height", "dpi", "font-scale"; empty when there is none
    QString message;
};
ChartOptionProblem checkChartExportOptions(const ChartExportOptions& options);

// "8.5x6cm", "3.3x2.4in" -> width, height and unit; nothing when malformed.
std::optional<ChartExportOptions> parseChartSize(const QString& text, ChartExportOptions base = {});

// The chart rendered with `options` as a PNG-like image (for the dialog's preview); the chart's
// fonts and size are restored afterwards.
// `cut`, when given, receives the texts Qt shortened with "..." at that size, `overlapping` the
// pairs of texts drawn over each other (cut_text.h).
QImage chartImage(QChart* chart, const ChartExportOptions& options, QStringList* cut = nullptr,
                  QStringList* overlapping = nullptr);

// Renders `chart` with `options` and saves it atomically to `path`. Returns an empty string on
// success, else a message naming the field; on failure an existing file at `path` is left
// untouched. The chart's on-screen fonts and size are restored.
QString exportChart(QChart* chart, const QString& path, ChartFormat format, const app::Provenance& provenance,
                    const ChartExportOptions& options);

// Renders `chart` at `size` logical pixels (96 per inch) and saves it atomically to `path`.
// `dpi` (96..600) applies to PNG. Returns an empty string on success, else a message; on
// failure an existing file at `path` is left untouched. The chart's on-screen size is restored.
// The chart as an image at `dpi` (for Edit > Copy chart image), white background.
QImage chartImage(QChart* chart, int dpi = 192, QSize size = QSize(960, 600));

QString exportChart(QChart* chart, const QString& path, ChartFormat format, const app::Provenance& provenance,
                    int dpi = 300, QSize size = QSize(960, 600));

}  // namespace logitlab::ui
