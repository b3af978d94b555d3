#include "ui/forms/file_field.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>

namespace logitlab::ui {

FileField::FileField(const QString& dialogTitle, const QString& filter, std::function<QString()> startDir,
                     QWidget* parent)
    : QWidget(parent), m_edit(new QLineEdit)
{
    auto* browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, [this, dialogTitle, filter, startDir = std::move(startDir)] {
        const QString path = QFileDialog::getOpenFileName(this, dialogTitle, startDir ? startDir() : QString(), filter);
        if (path.isEmpty())
            return;
        m_edit->setText(path);
        emit chosen(path);
    });
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_edit, 1);
    layout->addWidget(browse);
    setFocusProxy(m_edit);
}

QString FileField::ggufFilter() { return tr("GGUF models (*.gguf);;All files (*)"); }

}  // namespace logitlab::ui
