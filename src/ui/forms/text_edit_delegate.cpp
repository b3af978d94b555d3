#include "ui/forms/text_edit_delegate.h"

#include <QLineEdit>

namespace logitlab::ui {

QWidget* TextEditDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem&, const QModelIndex&) const
{
    auto* edit = new QLineEdit(parent);
    edit->setFrame(false);
    return edit;
}

void TextEditDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const
{
    // The display text: the shortest form that reads back to the same double.
    static_cast<QLineEdit*>(editor)->setText(index.data(Qt::DisplayRole).toString());
}

void TextEditDelegate::setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const
{
    model->setData(index, static_cast<QLineEdit*>(editor)->text(), Qt::EditRole);
}

}  // namespace logitlab::ui
