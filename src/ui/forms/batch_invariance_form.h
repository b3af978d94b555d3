// The batch-invariance experiment's controls: the toy model (V, d, seed, near twins), the
// kernel plan by batch size, and the study: one step (precisions, prompts searched) or decode
// (precision, prompt, R runs of T steps under seeded, file or inline load traces, the invariant
// plan's cost) or model decode (a GGUF model, a prompt, T greedy steps per kernel of the plan).
// Only the chosen study's rows are shown.
#pragma once

#include "app/kinds/batch_invariance_spec.h"
#include "ui/forms/kind_form.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;
QT_END_NAMESPACE

namespace logitlab::ui {

class FileField;

class BatchInvarianceForm : public SpecForm<app::BatchInvarianceSpec> {
    Q_OBJECT
public:
    explicit BatchInvarianceForm(QWidget* parent = nullptr);

    // The shipped decode example's experiment.
    static app::BatchInvarianceSpec startSpec();

    engine::Result<app::BatchInvarianceSpec> specFromControls() const override;
    void setSpec(const app::BatchInvarianceSpec& spec) override;
    void reset() override;
    QList<QWidget*> displayOnlyControls() const override;
    int workerThreads() const override;

    QComboBox* studyBox() const { return m_study; }
    QLineEdit* modelFileEdit() const { return m_modelFile; }
    QLineEdit* promptEdit() const { return m_promptText; }
    // The model-decode study on the model at `path`.
    bool useModel(const QString& path) override;
    QSpinBox* runsBox() const { return m_runs; }
    QSpinBox* threadsBox() const { return m_threads; }

private:
    void showStudyRows();

    app::BatchInvarianceSpec m_loaded;  // what the controls do not show (the plan) comes from here
    QComboBox* m_study;
    QSpinBox* m_vocabulary;
    QSpinBox* m_hidden;
    QSpinBox* m_modelSeed;
    QDoubleSpinBox* m_twinShare;
    QLineEdit* m_twinDistance;
    QSpinBox* m_maxBatch;
    QLabel* m_plan;
    QCheckBox* m_float32;
    QCheckBox* m_bf16;
    QCheckBox* m_float16;
    QComboBox* m_precision;
    QSpinBox* m_prompts;
    QSpinBox* m_searchSteps;
    QSpinBox* m_promptSeed;
    QSpinBox* m_promptLength;
    QSpinBox* m_runs;
    QSpinBox* m_steps;
    QComboBox* m_traceKind;
    QSpinBox* m_traceSeed;
    QLineEdit* m_traceFile;
    QCheckBox* m_measureCost;
    QSpinBox* m_threads;
    FileField* m_modelRow;  // the model file and its Browse button
    QLineEdit* m_modelFile;
    QLineEdit* m_promptText;
    QWidget* m_oneStepRows;
    QWidget* m_decodeRows;
    QFormLayout* m_form;
};

}  // namespace logitlab::ui
