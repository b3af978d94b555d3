// Edits every cell as plain text: a logit is typed, not spun, so any number (and any mistake:
// "nan", "lots") reaches the model, which accepts it or says why not. The default editor for
// doubles is a spin box that rounds to two decimals and hides bad input.
#pragma once

#include <QStyledItemDelegate>

namespace logitlab::ui {

class TextEditDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    void setEditorData(QWidget* editor, const QModelIndex& index) const override;
    void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override;
};

}  // namespace logitlab::ui
