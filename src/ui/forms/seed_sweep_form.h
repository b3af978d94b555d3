// The seed-sweep experiment's controls. A mode says what a seed changes: draws from one
// next-token distribution (the lesson's exercise or example, the Explorer's logits, a logits
// file, or the opened file's distribution; with "every step" each step of a file in turn) or a
// whole reply of a model to a prompt. Then the chain under a library's semantics, the RNG, the
// seeds and, for draws, how many per seed and two seeds to compare. Only the mode's rows are
// shown. A file's list of seeds is kept while First seed and Seeds still show it.
#pragma once

#include "app/kinds/seed_sweep_spec.h"
#include "engine/sampler/distribution.h"
#include "ui/forms/kind_form.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;
QT_END_NAMESPACE

namespace logitlab::ui {

class FileField;

class SeedSweepForm : public SpecForm<app::SeedSweepSpec> {
    Q_OBJECT
public:
    enum Source { LessonExercise, LessonExample, ExplorerLogits, LogitsFile, AsInExperimentFile };
    // What a seed changes: draws from one distribution, or a whole reply of a model.
    enum Mode { DrawsMode, RepliesMode };

    explicit SeedSweepForm(QWidget* parent = nullptr);

    // The lesson's exercise, 200 seeds x 10,000 draws of temperature 1, top-p 0.9.
    static app::SeedSweepSpec startSpec();

    engine::Result<app::SeedSweepSpec> specFromControls() const override;
    void setSpec(const app::SeedSweepSpec& spec) override;
    void reset() override;
    QList<QWidget*> displayOnlyControls() const override;
    int workerThreads() const override;

    // Draws from logits handed over (the Explorer's table): the distribution becomes "Explorer's logits".
    void useLogits(const engine::Distribution& distribution);
    // Whole replies of the GGUF model at `path`.
    bool useModel(const QString& path) override;
    // Draws from a logits file (File: the file picker's choice).
    void useLogitsFile(const QString& path);
    // Whether the controls describe a sweep of every step of a file.
    bool everyStep() const;

    QComboBox* modeBox() const { return m_mode; }
    QComboBox* sourceBox() const { return m_source; }
    QLineEdit* promptEdit() const { return m_prompt; }
    QLineEdit* modelFileEdit() const { return m_modelFile; }
    QSpinBox* stepsBox() const { return m_steps; }
    QLineEdit* chainEdit() const { return m_chain; }
    QSpinBox* firstSeedBox() const { return m_firstSeed; }
    QSpinBox* seedCountBox() const { return m_seedCount; }
    QSpinBox* drawsBox() const { return m_draws; }
    QCheckBox* everyStepBox() const { return m_everyStep; }
    QCheckBox* compareBox() const { return m_compare; }
    QSpinBox* threadsBox() const { return m_threads; }
    // Says when the file's own list of seeds is what runs (hidden otherwise).
    QLabel* seedListLabel() const { return m_seedList; }

private:
    void showStart();  // the start spec, drawing from the lesson's exercise
    void showModeRows();
    bool seedListKept() const;

    app::SeedSweepSpec m_loaded;            // name, description, arithmetic, seed list and file distribution
    engine::Distribution m_explorerLogits;  // ExplorerLogits: the logits handed over
    QString m_logitsFile;                   // LogitsFile: the file
    QFormLayout* m_form;
    QComboBox* m_mode;
    QComboBox* m_source;
    QLineEdit* m_prompt;
    FileField* m_modelRow;  // the file and its Browse button
    QLineEdit* m_modelFile;
    QSpinBox* m_steps;
    QComboBox* m_semantics;
    QLineEdit* m_chain;
    QComboBox* m_rng;
    QSpinBox* m_firstSeed;
    QSpinBox* m_seedCount;
    QLabel* m_seedList;
    QSpinBox* m_draws;
    QCheckBox* m_everyStep;
    QCheckBox* m_compare;
    QSpinBox* m_compareA;
    QSpinBox* m_compareB;
    QSpinBox* m_threads;
};

}  // namespace logitlab::ui
