#include "charts/chart_export.h"

#include "app/io/build_info.h"
#include "app/io/reproducible_pdf.h"
#include "app/io/save_text.h"
#include "charts/chart_export_style.h"
#include "charts/cut_text.h"

#include <QBuffer>
#include <QChart>
#include <QCoreApplication>
#include <QEvent>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QHashSeed>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>

#include <algorithm>
#include <cmath>

namespace logitlab::ui {

namespace {

constexpr double kLogicalDpi = 96.0;

QString softwareName() { return QStringLiteral("LogitLab %1 (%2)").arg(app::appVersion(), app::gitHash()); }

// Gives the chart a scene to render from (a chart built headless has none) and the export
// size, and puts both back afterwards.
class ChartStage {
public:
    ChartStage(QChart* chart, QSizeF size) : m_chart(chart), m_oldSize(chart->size())
    {
        if (!chart->scene()) {
            m_ownScene = std::make_unique<QGraphicsScene>();
            m_ownScene->addItem(chart);
        }
        chart->resize(size);
        relayout();
    }
    void relayout()
    {
        m_chart->layout()->activate();
        // New fonts post a second layout request (the axes' label sizes): handled now, or the
        // first export of a chart carries empty items of the old layout and a second export of
        // the same chart gives other bytes.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        m_chart->layout()->activate();
    }
    ~ChartStage()
    {
        if (m_ownScene)
            m_ownScene->removeItem(m_chart);
        else
            m_chart->resize(m_oldSize);
    }
    void render(QPainter& painter, const QRectF& target)
    {
        m_chart->scene()->render(&painter, target, m_chart->sceneBoundingRect());
    }

private:
    QChart* m_chart;
    QSizeF m_oldSize;
    std::unique_ptr<QGraphicsScene> m_ownScene;
};

// The logical size the chart is laid out at: 96 logical pixels per inch, the resolution the
// chart measures its text with, so a font of N points covers N/72 inch of the page.
QSizeF logicalSize(const ChartExportOptions& options)
{
    return QSizeF(options.widthInches() * kLogicalDpi, options.heightInches() * kLogicalDpi);
}

QImage renderImage(ChartStage& stage, const ChartExportOptions& options)
{
    const double scale = options.dpi / kLogicalDpi;
    QImage image(options.pixelSize(), QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.setDotsPerMeterX(qRound(options.dpi / 0.0254));
    image.setDotsPerMeterY(qRound(options.dpi / 0.0254));
    image.fill(options.transparent ? Qt::transparent : Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        stage.render(painter, QRectF(QPointF(0, 0), QSizeF(image.size()) / scale));
    }
    return image;
}

QByteArray renderPng(ChartStage& stage, const ChartExportOptions& options, const app::Provenance& provenance)
{
    QImage image = renderImage(stage, options);
    image.setText(QStringLiteral("Title"), provenance.experiment());
    image.setText(QStringLiteral("Software"), softwareName());
    image.setText(QStringLiteral("Description"), provenance.asText());
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

// "8.5cm", "3.3in": a length as the SVG's width or height.
QString svgLength(double value, LengthUnit unit) { return QString::number(value, 'g', 10) + lengthUnitName(unit); }

QByteArray renderSvg(ChartStage& stage, const ChartExportOptions& options, const app::Provenance& provenance)
{
    const QSizeF size = logicalSize(options);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size.toSize());
    svg.setViewBox(QRectF(QPointF(0, 0), size));
    svg.setResolution(static_cast<int>(kLogicalDpi));
    svg.setTitle(provenance.experiment());
    svg.setDescription(softwareName() + QLatin1Char('\n') + provenance.asText());
    QPainter painter(&svg);
    stage.render(painter, QRectF(QPointF(0, 0), size));
    painter.end();
    // QSvgGenerator states the size in whole-pixel millimetres; the page asked for is exact.
    QString text = QString::fromUtf8(bytes);
    static const QRegularExpression sizeAttributes(QStringLiteral("<svg width=\"[^\"]*\" height=\"[^\"]*\""));
    const QRegularExpressionMatch match = sizeAttributes.match(text);
    if (match.hasMatch()) {
        text.replace(match.capturedStart(), match.capturedLength(),
                     QStringLiteral("<svg width=\"%1\" height=\"%2\"")
                         .arg(svgLength(options.width, options.unit), svgLength(options.height, options.unit)));
    }
    return text.toUtf8();
}

QString xmlEscaped(const QString& text) { return text.toHtmlEscaped(); }

QByteArray renderPdf(ChartStage& stage, const ChartExportOptions& options, const app::Provenance& provenance)
{
    // Qt keeps the PDF's fonts in a QHash and writes them in its order, which follows the hash
    // seed: random per process unless made deterministic. Only for this writer's lifetime.
    struct DeterministicHashing {
        DeterministicHashing() { QHashSeed::setDeterministicGlobalSeed(); }
        ~DeterministicHashing() { QHashSeed::resetRandomGlobalSeed(); }
    } const deterministicHashing;
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter pdf(&buffer);
    pdf.setResolution(static_cast<int>(kLogicalDpi));
    // QPageSize keeps a custom page in whole points: the MediaBox is the asked size rounded to
    // the nearest point (8.5 cm x 6 cm -> 241 x 170 pt).
    const QSizeF millimetres(options.widthInches() * 25.4, options.heightInches() * 25.4);
    pdf.setPageLayout(QPageLayout(QPageSize(millimetres, QPageSize::Millimeter), QPageLayout::Portrait, QMarginsF()));
    pdf.setTitle(provenance.experiment());
    pdf.setCreator(softwareName());
    // The provenance goes into the XMP packet as the document's description.
    pdf.setDocumentXmpMetadata(
        QStringLiteral("<?xpacket begin=\"\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>"
                       "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF "
                       "xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
                       "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\">"
                       "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">%1</rdf:li></rdf:Alt></dc:title>"
                       "<dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">%2</rdf:li></rdf:Alt></dc:description>"
                       "<dc:creator><rdf:Seq><rdf:li>%3</rdf:li></rdf:Seq></dc:creator>"
                       "</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end=\"w\"?>")
            .arg(xmlEscaped(provenance.experiment()), xmlEscaped(provenance.asText()), xmlEscaped(softwareName()))
            .toUtf8());
    QPainter painter(&pdf);
    // The page in the writer's 96-per-inch units; the chart is laid out at the same size.
    const QRectF page = pdf.pageLayout().fullRectPixels(pdf.resolution());
    if (!options.transparent)
        painter.fillRect(page, Qt::white);
    stage.render(painter, page);
    painter.end();
    return app::withFixedPdfDates(bytes, app::sourceDateEpoch());  // no wall-clock date
}

QString renderAndSave(QChart* chart, const QString& path, ChartFormat format, const app::Provenance& provenance,
                      const ChartExportOptions& options)
{
    ChartExportStyle style(chart, options);
    ChartStage stage(chart, logicalSize(options));
    style.fitToPage([&stage] { stage.relayout(); });
    QByteArray bytes;
    switch (format) {
    case ChartFormat::Png:
        bytes = renderPng(stage, options, provenance);
        break;
    case ChartFormat::Svg:
        bytes = renderSvg(stage, options, provenance);
        break;
    case ChartFormat::Pdf:
        bytes = renderPdf(stage, options, provenance);
        break;
    }
    if (bytes.isEmpty())
        return QStringLiteral("%1: rendering the %2 failed").arg(path, chartFormatName(format));
    return app::saveBytes(path, bytes);
}

}  // namespace

std::optional<ChartFormat> chartFormatFromName(const QString& name)
{
    const QString n = name.trimmed().toLower();
    if (n == QLatin1String("png"))
        return ChartFormat::Png;
    if (n == QLatin1String("svg"))
        return ChartFormat::Svg;
    if (n == QLatin1String("pdf"))
        return ChartFormat::Pdf;
    return std::nullopt;
}

QString chartFormatName(ChartFormat format)
{
    switch (format) {
    case ChartFormat::Png:
        return QStringLiteral("png");
    case ChartFormat::Svg:
        return QStringLiteral("svg");
    case ChartFormat::Pdf:
        return QStringLiteral("pdf");
    }
    return {};
}

QString lengthUnitName(LengthUnit unit) { return unit == LengthUnit::Cm ? QStringLiteral("cm") : QStringLiteral("in"); }

std::optional<LengthUnit> lengthUnitFromName(const QString& name)
{
    const QString n = name.trimmed().toLower();
    if (n == QLatin1String("cm"))
        return LengthUnit::Cm;
    if (n == QLatin1String("in"))
        return LengthUnit::Inch;
    return std::nullopt;
}

QSize ChartExportOptions::pixelSize() const
{
    return QSize(static_cast<int>(std::lround(widthInches() * dpi)),
                 static_cast<int>(std::lround(heightInches() * dpi)));
}

ChartExportOptions ChartExportOptions::fromScreenPixels(QSize size, int dpi)
{
    ChartExportOptions options;
    options.unit = LengthUnit::Inch;
    options.width = size.width() / kLogicalDpi;
    options.height = size.height() / kLogicalDpi;
    options.dpi = dpi;
    options.screenFonts = true;
    return options;
}

ChartOptionProblem checkChartExportOptions(const ChartExportOptions& o)
{
    const QString unit = lengthUnitName(o.unit);
    const double factor = o.unit == LengthUnit::Cm ? 2.54 : 1.0;
    const double minSide = ChartExportOptions::kMinSideInches * factor;
    const double maxSide = ChartExportOptions::kMaxSideInches * factor;
    const auto side = [&](const QString& field, double value) -> ChartOptionProblem {
        // !(a <= v && v <= b) also refuses NaN.
        if (!(minSide <= value && value <= maxSide))
            return {field, QStringLiteral("%1: must be between %2 and %3 %4, got %5")
                               .arg(field)
                               .arg(minSide, 0, 'g', 3)
                               .arg(maxSide, 0, 'g', 3)
                               .arg(unit)
                               .arg(value)};
        return {};
    };
    if (ChartOptionProblem p = side(QStringLiteral("width"), o.width); !p.field.isEmpty())
        return p;
    if (ChartOptionProblem p = side(QStringLiteral("height"), o.height); !p.field.isEmpty())
        return p;
    if (o.dpi < ChartExportOptions::kMinDpi || o.dpi > ChartExportOptions::kMaxDpi)
        return {QStringLiteral("dpi"), QStringLiteral("dpi: must be between %1 and %2, got %3")
                                           .arg(ChartExportOptions::kMinDpi)
                                           .arg(ChartExportOptions::kMaxDpi)
                                           .arg(o.dpi)};
    if (!(ChartExportOptions::kMinFontScale <= o.fontScale && o.fontScale <= ChartExportOptions::kMaxFontScale))
        return {QStringLiteral("font-scale"), QStringLiteral("font scale: must be between %1 and %2, got %3")
                                                  .arg(ChartExportOptions::kMinFontScale)
                                                  .arg(ChartExportOptions::kMaxFontScale)
                                                  .arg(o.fontScale)};
    return {};
}

std::optional<ChartExportOptions> parseChartSize(const QString& text, ChartExportOptions base)
{
    static const QRegularExpression pattern(QStringLiteral(
        "^\\s*([0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)\\s*[xX]\\s*([0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)\\s*(cm|in)\\s*$"));
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    base.width = match.captured(1).toDouble();
    base.height = match.captured(2).toDouble();
    base.unit = *lengthUnitFromName(match.captured(3));
    return base;
}

QImage chartImage(QChart* chart, const ChartExportOptions& options, QStringList* cut, QStringList* overlapping)
{
    if (!chart || !checkChartExportOptions(options).field.isEmpty())
        return {};
    ChartExportStyle style(chart, options);
    ChartStage stage(chart, logicalSize(options));
    style.fitToPage([&stage] { stage.relayout(); });
    if (cut)
        *cut = cutTexts(chart);
    if (overlapping)
        *overlapping = overlappingTexts(chart);
    return renderImage(stage, options);
}

QString exportChart(QChart* chart, const QString& path, ChartFormat format, const app::Provenance& provenance,
                    const ChartExportOptions& options)
{
    if (!chart)
        return QStringLiteral("%1: there is no chart to export").arg(path);
    if (const ChartOptionProblem problem = checkChartExportOptions(options); !problem.field.isEmpty())
        return problem.message;
    return renderAndSave(chart, path, format, provenance, options);
}

QImage chartImage(QChart* chart, int dpi, QSize size)
{
    if (!chart)
        return {};
    return chartImage(chart, ChartExportOptions::fromScreenPixels(size, std::clamp(dpi, 96, 600)));
}

QString exportChart(QChart* chart, const QString& path, ChartFormat format, const app::Provenance& provenance, int dpi,
                    QSize size)
{
    if (!chart)
        return QStringLiteral("%1: there is no chart to export").arg(path);
    if (dpi < 96 || dpi > 600)
        return QStringLiteral("dpi: must be between 96 and 600, got %1").arg(dpi);
    if (size.width() < 100 || size.height() < 100 || size.width() > 10000 || size.height() > 10000)
        return QStringLiteral("size: %1x%2 is outside 100..10000 pixels").arg(size.width()).arg(size.height());
    return renderAndSave(chart, path, format, provenance, ChartExportOptions::fromScreenPixels(size, dpi));
}

}  // namespace logitlab::ui
