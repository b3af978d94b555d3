// A legend for exported figures that wraps its entries into rows, drawn in the chart's scene so
// PNG, SVG and PDF all get it. Qt's attached legend puts every entry on one row and cuts the
// labels with "..." when they do not fit: at 8.5 cm most multi-series legends lost their names.
// ChartExportStyle::fitToPage() puts one in place of Qt's legend only when Qt's would cut.
#pragma once

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QGraphicsItem>
#include <QList>
#include <QPen>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace logitlab::ui {

class FigureLegend : public QGraphicsItem {
public:
    // What a marker draws: a filled box (bars, areas), a short stretch of the series' line
    // with its style (lines and splines; with a dot when the series shows its points), or a
    // dot (scatter series), so a figure's key looks like what it names.
    enum class Shape { Box, Line, Point };
    struct Entry {
        QString label;
        QBrush brush;  // the marker's fill
        QPen pen;      // the marker's outline; a line series' own pen (colour, width, dashes)
        Shape shape = Shape::Box;
        bool points = false;  // Shape::Line: the series draws its points too
    };
    // The marker's width for `shape`: a line needs room to show its dashes.
    double markerWidth(Shape shape) const { return shape == Shape::Line ? m_marker * 2.2 : m_marker; }

    // Qt's legend entries of `chart` (visible markers only) in its legend font, laid out in rows
    // no wider than `width`.
    FigureLegend(QChart* chart, double width);

    // True when Qt's one-row legend of `chart` cannot show every label whole in `width`.
    static bool qtLegendCuts(QChart* chart, double width);

    QStringList labels() const;
    QList<Entry> entries() const;
    int rowCount() const { return m_rows; }
    QRectF boundingRect() const override { return m_bounds; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    enum { Type = UserType + 71 };
    int type() const override { return Type; }

private:
    struct Placed {
        Entry entry;
        QStringList lines;  // the label, wrapped where it is wider than a row (text items)
        QPointF at;         // the marker's top left
    };
    QList<Placed> m_placed;
    QFont m_font;
    double m_marker = 0.0;  // marker side, from the font's height
    double m_lineHeight = 0.0;
    int m_rows = 0;
    QRectF m_bounds;
};

}  // namespace logitlab::ui
