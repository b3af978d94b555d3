#include "app/text/table_text_builder.h"

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

// Numbers as the table shows them; text whole (a long token name is shown cut, token_display.h).
QString tsvCellText(const QAbstractItemModel& model, const QModelIndex& index)
{
    const QVariant edit = model.data(index, Qt::EditRole);
    if (edit.typeId() == QMetaType::QString)
        return edit.toString();
    return model.data(index, Qt::DisplayRole).toString();
}

QStringList headers(const QAbstractItemModel& model)
{
    QStringList columns;
    for (int c = 0; c < model.columnCount(); ++c)
        columns << model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
    return columns;
}

}  // namespace

TableTextBuilder::TableTextBuilder(const QAbstractItemModel& model, std::optional<Provenance> provenance)
    : m_model(&model), m_rows(model.rowCount())
{
    if (provenance)
        m_csv.emplace(*provenance, headers(model));
    else
        m_tsvLines << headers(model).join(QLatin1Char('\t'));
}

TableTextBuilder::TableTextBuilder(ResultTable table, const Provenance& provenance)
    : m_table(std::move(table)), m_rows(static_cast<int>(m_table->rows))
{
    m_csv.emplace(provenance, m_table->columnNames());
}

bool TableTextBuilder::addRows(int rows)
{
    const int end = std::min(m_rows, m_next + std::max(rows, 0));
    if (m_table) {
        for (; m_next < end; ++m_next)
            m_csv->addRow(csvRow(*m_table, static_cast<std::size_t>(m_next)));
        return finished();
    }
    const int columns = m_model->columnCount();
    for (; m_next < end; ++m_next) {
        QStringList fields;
        for (int c = 0; c < columns; ++c) {
            const QModelIndex index = m_model->index(m_next, c);
            if (m_csv)
                fields << cellText(m_model->data(index, Qt::EditRole));
            else
                fields << tsvCellText(*m_model, index).replace(QLatin1Char('\t'), QLatin1Char(' '));
        }
        if (m_csv)
            m_csv->addRow(fields);
        else
            m_tsvLines << fields.join(QLatin1Char('\t'));
    }
    return finished();
}

QString TableTextBuilder::text() const
{
    return m_csv ? m_csv->text() : m_tsvLines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

}  // namespace logitlab::app
