#include "charts/chart_export_style.h"

#include "charts/chart_export.h"
#include "charts/chart_style.h"
#include "charts/figure_legend.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QLegend>
#include <QLegendMarker>
#include <QPalette>
#include <QRegularExpression>
#include <QTextDocumentFragment>
#include <QXYSeries>

#include <cmath>

namespace logitlab::ui {

namespace {

double plainWidth(const QString& html, const QFontMetricsF& metrics)
{
    return metrics.horizontalAdvance(QTextDocumentFragment::fromHtml(html).toPlainText());
}

// Dark text on the figure whatever the window's theme: figures go on white paper.
QPalette figurePalette()
{
    QPalette palette;
    palette.setColor(QPalette::WindowText, QColor(0x21, 0x21, 0x21));
    palette.setColor(QPalette::Base, Qt::white);
    return palette;
}

}  // namespace

QString wrapChartText(const QString& html, const QFont& font, double width)
{
    static const QRegularExpression lineBreak(QStringLiteral("<br\\s*/?>"), QRegularExpression::CaseInsensitiveOption);
    const QFontMetricsF metrics(font);
    QStringList out;
    for (const QString& line : html.split(lineBreak)) {
        if (plainWidth(line, metrics) <= width) {
            out << line;
            continue;
        }
        // Words, with a tag's own spaces (<span style="...">) kept inside its word.
        QStringList words;
        for (const QString& piece : line.split(QLatin1Char(' '))) {
            if (!words.isEmpty() && words.last().count(QLatin1Char('<')) > words.last().count(QLatin1Char('>')))
                words.last() += QLatin1Char(' ') + piece;
            else
                words << piece;
        }
        QString current;
        for (const QString& word : words) {
            const QString candidate = current.isEmpty() ? word : current + QLatin1Char(' ') + word;
            if (!current.isEmpty() && plainWidth(candidate, metrics) > width) {
                out << current;
                current = word;
            } else {
                current = candidate;
            }
        }
        out << current;
    }
    // Lines of a wrapped title are centred under each other, as the one-line title is.
    if (out.size() > 1 && !html.contains(lineBreak))
        return QStringLiteral("<div align=\"center\">") + out.join(QStringLiteral("<br>")) + QStringLiteral("</div>");
    return out.join(QStringLiteral("<br>"));
}

ChartExportStyle::ChartExportStyle(QChart* chart, const ChartExportOptions& options)
    : m_chart(chart), m_fit(!options.screenFonts), m_showTitle(options.title), m_title(chart->title()),
      m_titleFont(chart->titleFont()), m_legendFont(chart->legend()->font()), m_background(chart->backgroundBrush()),
      m_backgroundVisible(chart->isBackgroundVisible()), m_margins(chart->margins()),
      m_legendVisible(chart->legend()->isVisible())
{
    chart->layout()->getContentsMargins(&m_layoutMargins[0], &m_layoutMargins[1], &m_layoutMargins[2],
                                        &m_layoutMargins[3]);
    for (QAbstractAxis* axis : chart->axes()) {
        m_axisLabelFonts << axis->labelsFont();
        m_axisTitleFonts << axis->titleFont();
        m_axisTitles << axis->titleText();
    }
    setChartColours(chart, figurePalette());
    // A figure's key shows a line series as a stretch of its line and a scatter as a dot (Qt's
    // legend draws a square for every series by default); bars and areas keep their boxes.
    for (QLegendMarker* marker : chart->legend()->markers())
        if (qobject_cast<QXYSeries*>(marker->series())) {
            m_markerShapes.append({marker, marker->shape()});
            marker->setShape(QLegend::MarkerShapeFromSeries);
        }
    if (!m_showTitle)
        chart->setTitle(QString());
    if (!options.screenFonts) {
        // The legend's font keeps the family and style the chart shows on screen; only its
        // size becomes points on paper.
        QFont base = m_legendFont;
        base.setPointSizeF(ChartExportOptions::kBasePoints * options.fontScale);
        setChartFonts(chart, base);
        // The window's generous margins would waste a small figure's page: a few points only.
        chart->setMargins(QMargins(2, 2, 2, 2));
        chart->layout()->setContentsMargins(3, 3, 3, 3);
    }
    if (options.transparent)
        chart->setBackgroundVisible(false);
    else
        chart->setBackgroundBrush(Qt::white);
}

ChartExportStyle::~ChartExportStyle()
{
    m_figureLegend.reset();
    m_chart->legend()->setVisible(m_legendVisible);
    for (const auto& [marker, shape] : m_markerShapes)
        marker->setShape(static_cast<QLegend::MarkerShape>(shape));
    setChartColours(m_chart, QApplication::palette());
    m_chart->setTitle(m_title);
    m_chart->setTitleFont(m_titleFont);
    m_chart->legend()->setFont(m_legendFont);
    const QList<QAbstractAxis*> axes = m_chart->axes();
    for (qsizetype i = 0; i < axes.size() && i < m_axisLabelFonts.size(); ++i) {
        axes[i]->setLabelsFont(m_axisLabelFonts[i]);
        axes[i]->setTitleFont(m_axisTitleFonts[i]);
        if (i < m_axisTitles.size())
            axes[i]->setTitleText(m_axisTitles[i]);
    }
    m_chart->setMargins(m_margins);
    m_chart->layout()->setContentsMargins(m_layoutMargins[0], m_layoutMargins[1], m_layoutMargins[2],
                                          m_layoutMargins[3]);
    m_chart->setBackgroundBrush(m_background);
    m_chart->setBackgroundVisible(m_backgroundVisible);
}

void ChartExportStyle::fitToPage(const std::function<void()>& relayout)
{
    if (!m_fit)
        return;
    // Qt cuts a title that is too wide with "...": at 8.5 cm that was most titles.
    const QMargins margins = m_chart->margins();
    const double titleRoom = m_chart->size().width() - margins.left() - margins.right() - 16.0;
    const QString title = m_showTitle ? wrapChartText(m_title, m_chart->titleFont(), titleRoom) : QString();
    if (title != m_chart->title()) {
        m_chart->setTitle(title);
        relayout();
    }
    // Qt's legend puts every entry on one row and cuts labels that do not fit: rows of our own.
    const double legendRoom = m_chart->size().width() - margins.left() - margins.right() - 8.0;
    if (!m_figureLegend && FigureLegend::qtLegendCuts(m_chart, legendRoom)) {
        m_figureLegend = std::make_unique<FigureLegend>(m_chart, legendRoom);  // reads Qt's markers
        m_chart->legend()->setVisible(false);
        const double height = m_figureLegend->boundingRect().height();
        m_chart->setMargins(margins + QMargins(0, 0, 0, static_cast<int>(std::ceil(height)) + 2));
        qreal left = 0.0, top = 0.0, right = 0.0, bottom = 0.0;
        m_chart->layout()->getContentsMargins(&left, &top, &right, &bottom);
        m_figureLegend->setPos(left + margins.left() + 4.0,
                               m_chart->size().height() - bottom - margins.bottom() - height);
        relayout();
    }
    // Axis titles to the plot's sides, once the title and the legend have taken their room.
    const QRectF plot = m_chart->plotArea();
    const QList<QAbstractAxis*> axes = m_chart->axes();
    bool changed = false;
    for (qsizetype i = 0; i < axes.size() && i < m_axisTitles.size(); ++i) {
        if (!axes[i]->isVisible() || m_axisTitles[i].isEmpty())
            continue;
        const double room = (axes[i]->orientation() == Qt::Horizontal ? plot.width() : plot.height()) - 4.0;
        const QString wrapped = wrapChartText(m_axisTitles[i], axes[i]->titleFont(), room);
        if (wrapped != axes[i]->titleText()) {
            axes[i]->setTitleText(wrapped);
            changed = true;
        }
    }
    if (changed)
        relayout();
}

}  // namespace logitlab::ui
