#include "app/io/reproducible_pdf.h"

#include <QByteArrayView>
#include <QTimeZone>

namespace logitlab::app {

std::optional<QDateTime> sourceDateEpoch()
{
    const QByteArray text = qgetenv("SOURCE_DATE_EPOCH").trimmed();
    bool ok = false;
    const qint64 seconds = text.toLongLong(&ok);
    // Up to the year 9999: PDF dates have four digits for the year.
    if (!ok || seconds < 0 || seconds > 253402300799)
        return std::nullopt;
    return QDateTime::fromSecsSinceEpoch(seconds, QTimeZone::utc());
}

QByteArray withFixedPdfDates(QByteArray pdf, const std::optional<QDateTime>& date)
{
    for (const QByteArrayView key : {QByteArrayView("/CreationDate"), QByteArrayView("/ModDate")}) {
        const qsizetype start = pdf.indexOf(key);
        if (start < 0)
            continue;
        const qsizetype open = pdf.indexOf('(', start + key.size());
        const qsizetype close = open < 0 ? -1 : pdf.indexOf(')', open);
        // Only the string right after the key (whitespace between), no further.
        if (close < 0 ||
            QByteArrayView(pdf).sliced(start + key.size(), open - start - key.size()).trimmed().size() != 0)
            continue;
        const qsizetype length = close + 1 - start;
        QByteArray entry;
        if (date)
            entry =
                key.toByteArray() + " (D:" + date->toUTC().toString(QStringLiteral("yyyyMMddHHmmss")).toLatin1() + "Z)";
        if (entry.size() > length)
            continue;                              // never: Qt's own date is as long or longer
        entry.append(length - entry.size(), ' ');  // whitespace between dictionary entries is free
        pdf.replace(start, length, entry);
    }
    return pdf;
}

}  // namespace logitlab::app
