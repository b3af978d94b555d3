#include "chart_export.h"

#include "build_info.h"
#include "reproducible_pdf.h"
#include "save_text.h"

#include <QBuffer>
#include <QChart>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QHashSeed>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <algorithm>

namespace logitlab::ui {

namespace {

constexpr double kLogicalDpi = 96.0;

QString softwareName()
{
    return QStringLiteral("LogitLab %1 (%2)").arg(app::appVersion(), app::gitHash());
}

// Gives the chart a scene to render from (a chart built headless has none) and the export
// size, and puts both back afterwards.
class ChartStage {
public:
    ChartStage(QChart* chart, QSize size) : m_chart(chart), m_oldSize(chart->size())
    {
        if (!chart->scene()) {
            m_ownScene = std::make_unique<QGraphicsScene>();
            m_ownScene->addItem(chart);
        }
        chart->resize(QSizeF(size));
        chart->layout()->activate();
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

QImage renderImage(ChartStage& stage, QSize size, int dpi)
{
    const double scale = dpi / kLogicalDpi;
    QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.setDotsPerMeterX(qRound(dpi / 0.0254));
    image.setDotsPerMeterY(qRound(dpi / 0.0254));
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        stage.render(painter, QRectF(QPointF(0, 0), QSizeF(size)));
    }
    return image;
}

QByteArray renderPng(ChartStage& stage, QSize size, int dpi, const app::Provenance& provenance)
{
    QImage image = renderImage(stage, size, dpi);
    image.setText(QStringLiteral("Title"), provenance.experiment());
    image.setText(QStringLiteral("Software"), softwareName());
    image.setText(QStringLiteral("Description"), provenance.asText());
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

QByteArray renderSvg(ChartStage& stage, QSize size, const app::Provenance& provenance)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setResolution(static_cast<int>(kLogicalDpi));
    svg.setTitle(provenance.experiment());
    svg.setDescription(softwareName() + QLatin1Char('\n') + provenance.asText());
    QPainter painter(&svg);
    stage.render(painter, QRectF(QPointF(0, 0), QSizeF(size)));
    painter.end();
    return bytes;
}

QString xmlEscaped(const QString& text)
{
    return text.toHtmlEscaped();
}

QByteArray renderPdf(ChartStage& stage, QSize size, const app::Provenance& provenance)
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
    const QSizeF points = QSizeF(size) * (72.0 / kLogicalDpi);
    pdf.setPageLayout(QPageLayout(QPageSize(points, QPageSize::Point), QPageLayout::Portrait, QMarginsF()));
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
    stage.render(painter, QRectF(QPointF(0, 0), QSizeF(size)));
    painter.end();
    return app::withFixedPdfDates(bytes, app::sourceDateEpoch());  // no wall-clock date
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
    case ChartFormat::Png: return QStringLiteral("png");
    case ChartFormat::Svg: return QStringLiteral("svg");
    case ChartFormat::Pdf: return QStringLiteral("pdf");
    }
    return {};
}

QImage chartImage(QChart* chart, int dpi, QSize size)
{
    if (!chart)
        return {};
    ChartStage stage(chart, size);
    return renderImage(stage, size, std::clamp(dpi, 96, 600));
}

QString exportChart(QChart* chart, const QString& path, ChartFormat format, const app::Provenance& provenance,
                    int dpi, QSize size)
{
    if (!chart)
        return QStringLiteral("%1: there is no chart to export").arg(path);
    if (dpi < 96 || dpi > 600)
        return QStringLiteral("dpi: must be between 96 and 600, got %1").arg(dpi);
    if (size.width() < 100 || size.height() < 100 || size.width() > 10000 || size.height() > 10000)
        return QStringLiteral("size: %1x%2 is outside 100..10000 pixels").arg(size.width()).arg(size.height());

    ChartStage stage(chart, size);
    QByteArray bytes;
    switch (format) {
    case ChartFormat::Png: bytes = renderPng(stage, size, dpi, provenance); break;
    case ChartFormat::Svg: bytes = renderSvg(stage, size, provenance); break;
    case ChartFormat::Pdf: bytes = renderPdf(stage, size, provenance); break;
    }
    if (bytes.isEmpty())
        return QStringLiteral("%1: rendering the %2 failed").arg(path, chartFormatName(format));
    return app::saveBytes(path, bytes);
}

}  // namespace logitlab::ui
