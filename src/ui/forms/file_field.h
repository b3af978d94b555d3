// A file name, typed or picked: a line edit and a Browse… button whose dialog starts where the
// experiment file is (relative paths in a file start there too). Picking a file puts it in the
// line edit and emits chosen(); a form that must do more (switch to the model's rows, say)
// listens to it.
#pragma once

#include <QWidget>

#include <functional>

QT_BEGIN_NAMESPACE
class QLineEdit;
QT_END_NAMESPACE

namespace logitlab::ui {

class FileField : public QWidget {
    Q_OBJECT
public:
    // `startDir` is asked at each Browse (the form's folder changes as files are opened).
    FileField(const QString& dialogTitle, const QString& filter, std::function<QString()> startDir,
              QWidget* parent = nullptr);

    QLineEdit* edit() const { return m_edit; }

    // The file dialogs' filter for GGUF models.
    static QString ggufFilter();

signals:
    void chosen(const QString& path);

private:
    QLineEdit* m_edit;
};

}  // namespace logitlab::ui
