// Names down the left of a horizontal bar chart, drawn by LogitLab instead of the category axis.
// Qt Charts shortens a vertical category axis's labels to "..." (and hides every other one) once
// a line is taller than its slot less 10 px of padding: the 14 summation orders need about
// 360 px at 9 pt, more than the page or a one-column figure has. Here each name is centred on its
// bar, in the axis's font shrunk to fit the slot (to 5 pt at least), and the chart's left margin
// makes room for the widest; the axis keeps its ticks and grid but shows no labels.
#pragma once

#include <QObject>
#include <QStringList>

#include <vector>

QT_BEGIN_NAMESPACE
class QBarCategoryAxis;
class QChart;
class QGraphicsSimpleTextItem;
QT_END_NAMESPACE

namespace logitlab::ui {

class CategoryNames : public QObject {
    Q_OBJECT
public:
    // `axis` (vertical, attached to `chart`) keeps its categories; the names show in its place.
    // The object lives as the chart's child, as long as the chart.
    static CategoryNames* attach(QChart* chart, QBarCategoryAxis* axis);

    // The names as drawn now (for tests): text, and the font's point size.
    QStringList shownNames() const;
    double shownPointSize() const;

private:
    CategoryNames(QChart* chart, QBarCategoryAxis* axis);
    void place();

    QChart* m_chart;
    QBarCategoryAxis* m_axis;
    std::vector<QGraphicsSimpleTextItem*> m_items;  // children of the chart's graphics item
    int m_ownLeftMargin;
    double m_pointSize = 0.0;
};

}  // namespace logitlab::ui
