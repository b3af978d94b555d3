#include "app/text/lengths_text.h"

#include "engine/experiments/junk_risk.h"

#include <QObject>
#include <QRegularExpression>
#include <QStringList>

namespace logitlab::app {

QString lengthsText(const LengthSpec& l)
{
    if (!l.isRange) {
        QStringList items;
        for (qint64 n : l.list)
            items << QString::number(n);
        return items.join(QLatin1Char(','));
    }
    return l.logSpacing ? QStringLiteral("%1..%2 log %3").arg(l.from).arg(l.to).arg(l.points)
                        : QStringLiteral("%1..%2 step %3").arg(l.from).arg(l.to).arg(l.step);
}

engine::Result<LengthSpec> parseLengthsText(const QString& text)
{
    const qint64 max = engine::JunkRiskExperiment::kMaxLength;
    const auto fail = [](const QString& why) {
        return engine::Error{QObject::tr("Lengths: %1").arg(why).toStdString()};
    };
    LengthSpec l;
    static const QRegularExpression range(
        QStringLiteral("^\\s*(\\d+)\\s*\\.\\.\\s*(\\d+)\\s*(?:(log|step)\\s+(\\d+))?\\s*$"));
    const auto m = range.match(text);
    if (m.hasMatch()) {
        l.isRange = true;
        l.from = m.captured(1).toLongLong();
        l.to = m.captured(2).toLongLong();
        l.logSpacing = m.captured(3) == QLatin1String("log");
        if (l.logSpacing)
            l.points = m.captured(4).toLongLong();
        else if (!m.captured(4).isEmpty())
            l.step = m.captured(4).toLongLong();
        if (l.from < 1 || l.to > max || l.to < l.from)
            return fail(QObject::tr("the range must lie in 1..%1, from <= to").arg(max));
        if ((l.logSpacing && (l.points < 2 || l.points > kMaxLengths)) || l.step < 1 ||
            (!l.logSpacing && (l.to - l.from) / l.step + 1 > kMaxLengths))
            return fail(QObject::tr("2..%1 points, a step of at least 1, at most %1 lengths").arg(kMaxLengths));
        return l;
    }
    for (const QString& item : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const qint64 n = item.trimmed().toLongLong(&ok);
        if (!ok || n < 1 || n > max)
            return fail(QObject::tr("'%1' is not a length in 1..%2").arg(item.trimmed()).arg(max));
        if (!l.list.isEmpty() && n <= l.list.back())
            return fail(QObject::tr("list them ascending, without repeats"));
        l.list << n;
    }
    if (l.list.isEmpty() || l.list.size() > kMaxLengths)
        return fail(QObject::tr("a list like 1,10,300 or a range like 1..2000 log 30"));
    return l;
}

}  // namespace logitlab::app
