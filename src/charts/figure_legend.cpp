#include "charts/figure_legend.h"

#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QPainter>
#include <QXYSeries>

#include <algorithm>

namespace logitlab::ui {

namespace {

QList<FigureLegend::Entry> entriesOf(QChart* chart)
{
    QList<FigureLegend::Entry> entries;
    for (QLegendMarker* marker : chart->legend()->markers())
        if (marker->isVisible() && !marker->label().isEmpty()) {
            FigureLegend::Entry entry{marker->label(), marker->brush(), marker->pen()};
            if (const auto* xy = qobject_cast<const QXYSeries*>(marker->series())) {
                if (xy->type() == QAbstractSeries::SeriesTypeScatter) {
                    entry.shape = FigureLegend::Shape::Point;
                } else {
                    entry.shape = FigureLegend::Shape::Line;
                    entry.pen = xy->pen();
                    entry.points = xy->pointsVisible();
                }
            }
            entries.append(entry);
        }
    return entries;
}

// The label in lines no wider than `room`, broken after a comma or at a space (a chain's text
// has commas and no spaces); a piece with no break in it stays whole.
QStringList wrapLabel(const QString& label, const QFontMetricsF& metrics, double room)
{
    QStringList pieces;  // each ends where a line may break
    QString piece;
    for (const QChar c : label) {
        piece += c;
        if (c == QLatin1Char(',') || c == QLatin1Char(' ')) {
            pieces << piece;
            piece.clear();
        }
    }
    if (!piece.isEmpty())
        pieces << piece;
    QStringList lines;
    QString line;
    for (const QString& p : pieces) {
        if (!line.isEmpty() && metrics.horizontalAdvance((line + p).trimmed()) > room) {
            lines << line.trimmed();
            line.clear();
        }
        line += p;
    }
    lines << line.trimmed();
    return lines;
}

double linesWidth(const QStringList& lines, const QFontMetricsF& metrics)
{
    double widest = 0.0;
    for (const QString& line : lines)
        widest = std::max(widest, metrics.horizontalAdvance(line));
    return widest;
}

}  // namespace

bool FigureLegend::qtLegendCuts(QChart* chart, double width)
{
    QLegend* legend = chart->legend();
    // Only a legend under the plot, where every chart of LogitLab keeps it.
    if (!legend->isVisible() || !legend->isAttachedToChart() || !(legend->alignment() & Qt::AlignBottom))
        return false;
    const QFontMetricsF metrics(legend->font());
    const double marker = metrics.height() * 0.8;
    double total = 0.0;
    for (const Entry& entry : entriesOf(chart))
        total += marker * 3.5 + metrics.horizontalAdvance(entry.label);  // marker, gap and Qt's padding
    return total > width;
}

FigureLegend::FigureLegend(QChart* chart, double width) : QGraphicsItem(chart), m_font(chart->legend()->font())
{
    const QColor textColour = chart->legend()->labelColor();
    const QFontMetricsF metrics(m_font);
    m_marker = metrics.height() * 0.8;
    m_lineHeight = metrics.height() * 1.15;
    const double textRoom = width - markerWidth(Shape::Line) - m_marker * 0.5;
    // Rows filled left to right, each centred as Qt's legend is; a label wider than the whole
    // row wraps onto lines of its own.
    QList<QList<Placed>> rows(1);
    QList<double> rowWidths{0.0};
    QList<qsizetype> rowLines{1};
    for (const Entry& entry : entriesOf(chart)) {
        const QStringList lines = wrapLabel(entry.label, metrics, textRoom);
        const double w = markerWidth(entry.shape) + m_marker * 0.5 + linesWidth(lines, metrics);
        if (!rows.last().isEmpty() && rowWidths.last() + m_marker + w > width) {
            rows.append(QList<Placed>());
            rowWidths.append(0.0);
            rowLines.append(1);
        }
        const double x = rows.last().isEmpty() ? 0.0 : rowWidths.last() + m_marker;
        rows.last().append(Placed{entry, lines, QPointF(x, 0.0)});
        rowWidths.last() = x + w;
        rowLines.last() = std::max(rowLines.last(), lines.size());
    }
    double y = 0.0;
    double widest = 0.0;
    for (qsizetype r = 0; r < rows.size(); ++r) {
        const double shift = std::max(0.0, (width - rowWidths[r]) / 2.0);
        for (Placed placed : rows[r]) {
            placed.at += QPointF(shift, y + (m_lineHeight - m_marker) / 2.0);
            m_placed.append(placed);
        }
        y += static_cast<double>(rowLines[r]) * m_lineHeight;
        widest = std::max(widest, rowWidths[r]);
    }
    // The labels are text items, as Qt's chart draws its own text: laid out for the screen and
    // scaled with the figure (a QPainter::drawText here would size the font again for a 300 dpi
    // image).
    for (const Placed& placed : m_placed) {
        double top = placed.at.y() + m_marker / 2.0 - metrics.height() / 2.0;
        for (const QString& line : placed.lines) {
            auto* text = new QGraphicsSimpleTextItem(line, this);
            text->setFont(m_font);
            text->setBrush(textColour);
            text->setPos(placed.at.x() + markerWidth(placed.entry.shape) + m_marker * 0.5, top);
            top += m_lineHeight;
        }
    }
    m_rows = m_placed.isEmpty() ? 0 : static_cast<int>(rows.size());
    m_bounds = m_placed.isEmpty() ? QRectF() : QRectF(0.0, 0.0, std::max(width, widest), y);
}

QList<FigureLegend::Entry> FigureLegend::entries() const
{
    QList<Entry> out;
    for (const Placed& placed : m_placed)
        out << placed.entry;
    return out;
}

QStringList FigureLegend::labels() const
{
    QStringList out;
    for (const Placed& placed : m_placed)
        out << placed.entry.label;
    return out;
}

void FigureLegend::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    for (const Placed& placed : m_placed) {
        const Entry& entry = placed.entry;
        const QRectF box(placed.at, QSizeF(markerWidth(entry.shape), m_marker));
        const QColor colour = entry.pen.color();
        const double dot = m_marker * 0.3;  // a point's radius
        switch (entry.shape) {
        case Shape::Box: {
            QBrush fill = entry.brush;
            if (fill.style() == Qt::NoBrush)
                fill = QBrush(colour);
            painter->setPen(QPen(colour, 0.5));
            painter->setBrush(fill);
            painter->drawRect(box);
            break;
        }
        case Shape::Line: {
            // The series' own pen (its dashes), at most 2 px wide so the dashes stay readable.
            QPen line = entry.pen;
            line.setWidthF(std::clamp(line.widthF(), 1.0, 2.0));
            line.setCapStyle(Qt::FlatCap);
            painter->setPen(line);
            painter->drawLine(QPointF(box.left(), box.center().y()), QPointF(box.right(), box.center().y()));
            if (entry.points) {
                painter->setPen(QPen(colour, 0.5));
                painter->setBrush(colour);
                painter->drawEllipse(box.center(), dot, dot);
            }
            break;
        }
        case Shape::Point:
            painter->setPen(QPen(colour, 0.5));
            painter->setBrush(entry.brush.style() == Qt::NoBrush ? QBrush(colour) : entry.brush);
            painter->drawEllipse(box.center(), dot * 1.3, dot * 1.3);
            break;
        }
    }
    painter->restore();
}

}  // namespace logitlab::ui
