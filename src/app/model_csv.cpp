#include "model_csv.h"

#include "csv_writer.h"

#include <QAbstractItemModel>

namespace logitlab::app {

namespace {

QString cellText(const QVariant& value)
{
    switch (value.typeId()) {
    case QMetaType::Double:
    case QMetaType::Float:
        return CsvWriter::number(value.toDouble());
    case QMetaType::Bool:
        return value.toBool() ? QStringLiteral("yes") : QStringLiteral("no");
    default:
        return value.toString();
    }
}

}  // namespace

QString modelToCsv(const QAbstractItemModel& model, const Provenance& provenance)
{
    QStringList columns;
    for (int c = 0; c < model.columnCount(); ++c)
        columns << model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
    CsvWriter csv(provenance, columns);
    for (int r = 0; r < model.rowCount(); ++r) {
        QStringList fields;
        for (int c = 0; c < model.columnCount(); ++c)
            fields << cellText(model.data(model.index(r, c), Qt::EditRole));
        csv.addRow(fields);
    }
    return csv.text();
}

QString modelToTsv(const QAbstractItemModel& model)
{
    QStringList lines;
    QStringList header;
    for (int c = 0; c < model.columnCount(); ++c)
        header << model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
    lines << header.join(QLatin1Char('\t'));
    for (int r = 0; r < model.rowCount(); ++r) {
        QStringList fields;
        for (int c = 0; c < model.columnCount(); ++c)
            fields << model.data(model.index(r, c), Qt::DisplayRole).toString().replace(QLatin1Char('\t'), QLatin1Char(' '));
        lines << fields.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

}  // namespace logitlab::app
