#include "ui/forms/loop_source_panel.h"

#include "ui/forms/file_field.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace logitlab::ui {

LoopSourcePanel::LoopSourcePanel(QWidget* parent)
    : QWidget(parent), m_source(new QComboBox), m_fileRows(new QWidget), m_modelRows(new QWidget),
      m_modelField(new FileField(tr("GGUF model"), FileField::ggufFilter(), [this] { return m_baseDir; })),
      m_modelFile(m_modelField->edit()), m_modelInfo(new QLabel),
      m_fileField(new FileField(tr("Model's logits"), tr("Logits (*.npy *.npz *.safetensors);;All files (*)"),
                                [this] { return m_baseDir; })),
      m_file(m_fileField->edit()), m_array(new QLineEdit), m_batch(new QSpinBox), m_sequences(new QLineEdit),
      m_vocabularyFile(new QLineEdit), m_error(new QLabel), m_progress(new QProgressBar)
{
    m_source->addItems({tr("built-in model"), tr("imported file (replay)"), tr("GGUF model (on the CPU)")});
    m_source->setToolTip(tr("The built-in model continues the prompt (free running); a model's dump is replayed "
                            "teacher-forced (step t's logits are the file's row t, whatever the sampler picks); or "
                            "a GGUF model (llama, qwen2, gpt2) continues the prompt, one forward pass per step."));
    m_modelFile->setPlaceholderText(tr(".gguf: llama, qwen2 or gpt2"));
    m_modelFile->setToolTip(tr("A GGUF model file (F32, F16, BF16, Q8_0, Q4_0, Q5_0, Q4_K, Q6_K weights), run on "
                               "the CPU; a relative path starts at the experiment file's folder."));
    m_modelInfo->setWordWrap(true);
    m_modelInfo->hide();
    m_file->setPlaceholderText(tr(".npy, .npz or .safetensors"));
    m_array->setPlaceholderText(tr("empty: logits, or the only array"));
    m_batch->setRange(0, std::numeric_limits<int>::max());
    m_batch->setToolTip(tr("The batch row of a [batch, steps, V] array."));
    m_sequences->setPlaceholderText(tr("empty: 'sequences' if the file has it; none: no tokens"));
    m_sequences->setToolTip(
        tr("The integer array of the model's tokens (generate's sequences: the prompt, then one token per "
           "step; the last 'steps' ids are the reply). Without it the argmax stands in, marked unknown."));
    m_vocabularyFile->setPlaceholderText(tr("tokenizer.json or one token per line"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b00020"));
    m_error->hide();
    m_progress->hide();

    auto* modelForm = new QFormLayout(m_modelRows);
    modelForm->setContentsMargins(0, 0, 0, 0);
    modelForm->addRow(tr("Model"), m_modelField);
    modelForm->addRow(m_modelInfo);
    auto* fileForm = new QFormLayout(m_fileRows);
    fileForm->setContentsMargins(0, 0, 0, 0);
    fileForm->addRow(tr("File"), m_fileField);
    fileForm->addRow(tr("Array"), m_array);
    fileForm->addRow(tr("Batch"), m_batch);
    fileForm->addRow(tr("Sequences"), m_sequences);
    fileForm->addRow(tr("Vocabulary"), m_vocabularyFile);
    // The combo box sits in the page's form (its label lines up with the page's); the rows here.
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_fileRows);
    layout->addWidget(m_modelRows);
    layout->addWidget(m_error);
    layout->addWidget(m_progress);
    connect(m_source, &QComboBox::currentIndexChanged, this, [this] {
        showChoiceRows();
        emit choiceChanged();
    });
    showChoiceRows();
}

LoopSourcePanel::Choice LoopSourcePanel::choice() const { return static_cast<Choice>(m_source->currentIndex()); }

void LoopSourcePanel::setFrom(const app::LoopSpec& spec)
{
    m_source->setCurrentIndex(spec.replay ? ImportedFile : !spec.modelFile.isEmpty() ? GgufModelFile : BuiltinModel);
    if (!spec.modelFile.isEmpty())
        m_modelFile->setText(spec.modelFile);
    if (spec.replay) {
        m_file->setText(spec.replay->path);
        m_array->setText(spec.replay->array);
        m_batch->setValue(static_cast<int>(std::min<qint64>(spec.replay->batch, std::numeric_limits<int>::max())));
        m_sequences->setText(!spec.replay->sequences             ? QString()
                             : spec.replay->sequences->isEmpty() ? QStringLiteral("none")
                                                                 : *spec.replay->sequences);
        m_vocabularyFile->setText(spec.replay->vocabularyFile);
    }
    showChoiceRows();
}

void LoopSourcePanel::useModel(const QString& path)
{
    m_source->setCurrentIndex(GgufModelFile);
    m_modelFile->setText(path);
}

void LoopSourcePanel::writeInto(QJsonObject& json) const
{
    if (choice() == GgufModelFile) {
        json.insert(QStringLiteral("model"), QStringLiteral("gguf"));
        json.insert(QStringLiteral("model-file"), m_modelFile->text().trimmed());
    } else if (choice() == ImportedFile) {
        json.remove(QStringLiteral("prompt"));
        json.insert(QStringLiteral("model"), QStringLiteral("file"));
        QJsonObject logits{{QStringLiteral("path"), m_file->text().trimmed()},
                           {QStringLiteral("batch"), m_batch->value()}};
        if (!m_array->text().trimmed().isEmpty())
            logits.insert(QStringLiteral("array"), m_array->text().trimmed());
        const QString sequences = m_sequences->text().trimmed();
        if (!sequences.isEmpty())
            logits.insert(QStringLiteral("sequences"), sequences == QStringLiteral("none") ? QString() : sequences);
        if (!m_vocabularyFile->text().trimmed().isEmpty())
            logits.insert(QStringLiteral("vocabulary-file"), m_vocabularyFile->text().trimmed());
        json.insert(QStringLiteral("logits"), logits);
    }
}

QString LoopSourcePanel::promptToolTip() const
{
    switch (choice()) {
    case ImportedFile:
        return tr("A replay's prompt is the file's (the ids of sequences before the reply).");
    case GgufModelFile:
        return tr("The text the model continues, read by its tokenizer (BOS added as the model asks; a control "
                  "token's text, e.g. <|im_start|>, is that token).");
    default:
        return tr("The text the model continues. Words the model never saw are read as unknown.");
    }
}

void LoopSourcePanel::showOpening()
{
    m_progress->setRange(0, 0);
    m_progress->show();
}

void LoopSourcePanel::showProgress(int done, int total)
{
    m_progress->setRange(0, std::max(1, total));
    m_progress->setValue(done);
}

void LoopSourcePanel::hideProgress() { m_progress->hide(); }

void LoopSourcePanel::showError(const QString& message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}

void LoopSourcePanel::showModelInfo(const QString& text)
{
    m_modelInfo->setText(text);
    m_modelInfo->setVisible(!text.isEmpty());
}

void LoopSourcePanel::showChoiceRows()
{
    m_fileRows->setVisible(choice() == ImportedFile);
    m_modelRows->setVisible(choice() == GgufModelFile);
}

}  // namespace logitlab::ui
