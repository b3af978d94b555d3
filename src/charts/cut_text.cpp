#include "charts/cut_text.h"

#include <QChart>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>

namespace logitlab::ui {

namespace {

bool isCut(const QString& text)
{
    const QString shown = text.trimmed();
    return shown.endsWith(QLatin1String("...")) || shown.endsWith(QChar(0x2026)) || shown.contains(QChar(0x22EE));
}

void collect(const QGraphicsItem* item, QStringList& out)
{
    if (!item->isVisible())
        return;
    QString text;
    if (const auto* rich = dynamic_cast<const QGraphicsTextItem*>(item))
        text = rich->toPlainText();
    else if (const auto* plain = dynamic_cast<const QGraphicsSimpleTextItem*>(item))
        text = plain->text();
    if (isCut(text))
        out << text.trimmed();
    for (const QGraphicsItem* child : item->childItems())
        collect(child, out);
}

}  // namespace

QStringList cutTexts(const QChart* chart)
{
    QStringList out;
    if (chart)
        for (const QGraphicsItem* child : chart->childItems())
            collect(child, out);
    return out;
}

}  // namespace logitlab::ui
