// A chart's series as text: each series' name and type and every value it draws, so that two
// charts built apart (a page's and the CLI's) compare point for point with one QCOMPARE.
#pragma once

#include <QAbstractBarSeries>
#include <QAbstractSeries>
#include <QBarSet>
#include <QChart>
#include <QStringList>
#include <QXYSeries>

namespace logitlab::test {

inline QStringList seriesText(const QChart* chart)
{
    QStringList out;
    for (QAbstractSeries* series : chart->series()) {
        QString text = QStringLiteral("%1 [%2]").arg(series->name()).arg(series->type());
        if (const auto* xy = qobject_cast<const QXYSeries*>(series)) {
            for (const QPointF& p : xy->points())
                text += QStringLiteral(" %1,%2").arg(p.x(), 0, 'g', 17).arg(p.y(), 0, 'g', 17);
        } else if (const auto* bars = qobject_cast<const QAbstractBarSeries*>(series)) {
            for (const QBarSet* set : bars->barSets()) {
                text += QStringLiteral(" {%1:").arg(set->label());
                for (int i = 0; i < set->count(); ++i)
                    text += QStringLiteral(" %1").arg(set->at(i), 0, 'g', 17);
                text += QLatin1Char('}');
            }
        }
        out << text;
    }
    return out;
}

}  // namespace logitlab::test
