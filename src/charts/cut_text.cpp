#include "charts/cut_text.h"

#include <QChart>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QTextDocument>

#include <vector>

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

struct PlacedText {
    QString text;
    QRectF box;
};

void place(const QGraphicsItem* item, std::vector<PlacedText>& out)
{
    if (!item->isVisible())
        return;
    if (const auto* rich = dynamic_cast<const QGraphicsTextItem*>(item)) {
        const QString text = rich->toPlainText().trimmed();
        // The box without the document's margin: two labels' margins may touch, their ink not.
        const qreal margin = rich->document()->documentMargin();
        if (!text.isEmpty())
            out.push_back(
                {text, rich->mapRectToScene(rich->boundingRect().adjusted(margin, margin, -margin, -margin))});
    } else if (const auto* plain = dynamic_cast<const QGraphicsSimpleTextItem*>(item)) {
        if (!plain->text().trimmed().isEmpty())
            out.push_back({plain->text().trimmed(), plain->sceneBoundingRect()});
    }
    for (const QGraphicsItem* child : item->childItems())
        place(child, out);
}

}  // namespace

QStringList overlappingTexts(const QChart* chart)
{
    QStringList out;
    if (!chart)
        return out;
    std::vector<PlacedText> texts;
    for (const QGraphicsItem* child : chart->childItems())
        place(child, texts);
    for (std::size_t i = 0; i < texts.size(); ++i)
        for (std::size_t j = i + 1; j < texts.size(); ++j) {
            const QRectF both = texts[i].box.intersected(texts[j].box);
            if (both.width() > 1.0 && both.height() > 1.0)
                out << QStringLiteral("%1 / %2").arg(texts[i].text, texts[j].text);
        }
    return out;
}

QStringList cutTexts(const QChart* chart)
{
    QStringList out;
    if (chart)
        for (const QGraphicsItem* child : chart->childItems())
            collect(child, out);
    return out;
}

}  // namespace logitlab::ui
