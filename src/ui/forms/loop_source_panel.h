// Where the Loop's logits come from: the built-in model; a model's dump replayed teacher-forced
// (file, array, batch row, the model's tokens, vocabulary); or a GGUF model run on the CPU
// (its file, and what it is once open). The panel holds these controls as the experiment
// file's "model", "model-file" and "logits" keys, shows only the chosen source's rows, and
// shows what happens while a file or model opens on a worker: the progress, and the error
// next to the inputs. The Loop page opens the sources; the panel never does work.
#pragma once

#include "app/kinds/loop_spec.h"

#include <QJsonObject>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QSpinBox;
QT_END_NAMESPACE

namespace logitlab::ui {

class FileField;

class LoopSourcePanel : public QWidget {
    Q_OBJECT
public:
    enum Choice { BuiltinModel = 0, ImportedFile = 1, GgufModelFile = 2 };

    explicit LoopSourcePanel(QWidget* parent = nullptr);

    Choice choice() const;
    // The spec's source into the controls (the other controls are the page's).
    void setFrom(const app::LoopSpec& spec);
    // The GGUF model at `path` as the source.
    void useModel(const QString& path);
    // The source's keys of the experiment file into `json` (a replay has no prompt of its own:
    // its "prompt" goes).
    void writeInto(QJsonObject& json) const;
    // What the prompt is for this source, for its field's tooltip; a replay's is the file's.
    QString promptToolTip() const;

    // The file dialogs start here (the experiment file's folder).
    void setBaseDir(const QString& dir) { m_baseDir = dir; }
    // Opening: a busy bar, then done of total; hidden when the opening ended.
    void showOpening();
    void showProgress(int done, int total);
    void hideProgress();
    // Why the source cannot be opened or read (empty: none).
    void showError(const QString& message);
    // What an open GGUF model is (empty: hidden).
    void showModelInfo(const QString& text);

    // The source combo box: the page puts it in its form's first row.
    QComboBox* sourceBox() const { return m_source; }
    QLineEdit* modelFileField() const { return m_modelFile; }
    QLabel* errorLabel() const { return m_error; }
    QProgressBar* progressBar() const { return m_progress; }
    QLabel* modelInfoLabel() const { return m_modelInfo; }

signals:
    void choiceChanged();

private:
    void showChoiceRows();

    QString m_baseDir;
    QComboBox* m_source;
    QWidget* m_fileRows;
    QWidget* m_modelRows;
    FileField* m_modelField;
    QLineEdit* m_modelFile;
    QLabel* m_modelInfo;
    FileField* m_fileField;
    QLineEdit* m_file;
    QLineEdit* m_array;
    QSpinBox* m_batch;
    QLineEdit* m_sequences;
    QLineEdit* m_vocabularyFile;
    QLabel* m_error;
    QProgressBar* m_progress;
};

}  // namespace logitlab::ui
