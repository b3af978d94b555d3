// The Loop page: the autoregressive loop on the built-in model, step by step. A prompt, a chain
// of any stages under a preset (penalties, DRY and mirostat keep their state across steps),
// seed and RNG; Step (F10), Play at the latency model's speed (F8), Stop (Shift+F8), Rewind one
// step (F9), and Run (the experiment file's N steps and branch, on a worker). At the shown step:
// the next-token distribution (top tokens, survivors, the cut), the chosen token with its
// probability and rank; the text so far, streaming, and a strip of its tokens (hover: the step's
// candidates and cut; click: show the step; right-click: branch there). Branch here forces a token (or reseeds the
// draws) at the shown step and continues, and the two runs are shown side by side with the
// first divergent step marked. The latency model states prefill + N passes x time per pass.
// Stepping runs on the UI thread in slices of at most ~8 ms, and the page follows the new steps
// at most 30 times a second in events of their own; Run goes to a worker.
// Source: the built-in model, or an imported dump replayed teacher-forced (file, array, batch,
// sequences, vocabulary; opened on a worker with a progress bar, errors next to the inputs), with
// the sampler's pick shown against the model's actual token at every step. Under greedy, near
// ties (top-2 logit gap <= engine::kNearTieLogitGap) are listed and open the Batch invariance page.
#pragma once

#include "app/kinds/imported_logits_source.h"
#include "app/kinds/loop_job.h"
#include "app/kinds/loop_spec.h"
#include "app/kinds/loop_stepper.h"
#include "engine/experiments/generation_loop.h"
#include "ui/pages/experiment_page.h"
#include "ui/pages/loop_run_text.h"

#include <QElapsedTimer>

#include <functional>
#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;
class QTextBrowser;
class QTimer;
QT_END_NAMESPACE

namespace logitlab::ui {

class LoopSourcePanel;
class LoopStepChart;
class LoopStepsChart;
class LoopStepsModel;
class LoopTokenStrip;

// A source opened on a worker: a replayed file or a GGUF model (its prompt already evaluated),
// or why not, and the controls it was opened for.
struct LoadedReplay {
    std::shared_ptr<const app::ImportedLogitsSource> source;  // a replay
    std::shared_ptr<const engine::StepLogitsSource> model;    // a GGUF model's run
    std::size_t stepRoom = 0;                                 // the steps its cache holds after the prompt
    QString error;
    QJsonObject key;
};

class LoopPage : public ExperimentPage {
    Q_OBJECT
public:
    explicit LoopPage(QWidget* parent = nullptr);
    ~LoopPage() override;

    QString id() const override;
    QString title() const override;
    QChart* chart() const override;  // the shown step's distribution
    QChart* stepsChart() const;      // every step's chosen token
    QAbstractItemModel* resultsModel() const override;
    std::optional<app::ResultTable> resultTable() const override;
    app::Provenance provenance() const override;
    void reset() override;
    // The GGUF model as the source, the other controls kept; the first steps once it is open.
    QString openModel(const QString& path) override;
    QWidget* createPresentation() override;  // LoopPresentation

    void setSpec(const app::LoopSpec& spec);
    engine::Result<app::LoopSpec> specFromControls() const;
    void run() override;

    // The page's actions, also for tests.
    void stepOnce();
    void play();
    void stop();
    void rewindOne();
    void branchHere();
    // Branch at step `at` of the main run: force `token`, or reseed the draws with the branch seed.
    void branchFrom(std::size_t at, std::optional<std::int32_t> token);
    void sendTo(const QString& target);
    // Opens the imported file the controls name on a worker (progress bar, cancel with Stop);
    // `then` runs once it is open.
    void loadReplay(std::function<void()> then = {});
    // The same for the GGUF model the controls name: opened, a KV cache made, the prompt
    // evaluated, all on a worker.
    void loadModel(std::function<void()> then = {});
    // Hands the shown greedy near tie (or the first one) to the Batch invariance page.
    void openNearTie();

    const std::optional<engine::GenerationLoop>& mainLoop() const { return m_stepper.main(); }
    // Counts replacements of the main run (a new loop, Run N's landing), not its steps.
    quint64 mainGeneration() const { return m_stepper.mainGeneration(); }
    // The text before a run's first token, as its text pane shows it (a replay's, a model's prompt).
    QString promptText(const engine::GenerationLoop& loop) const;
    const std::optional<engine::GenerationLoop>& branchLoop() const { return m_stepper.branchRun(); }
    bool isPlaying() const;
    bool isBranching() const;
    QLabel* divergenceLabel() const { return m_divergence; }
    QLabel* latencyLabel() const { return m_latency; }
    QTextBrowser* mainText() const { return m_mainText; }
    LoopTokenStrip* tokenStrip() const { return m_strip; }
    QSpinBox* shownStepBox() const { return m_shownStep; }
    QLineEdit* branchTokenField() const { return m_branchToken; }
    QLineEdit* promptField() const { return m_prompt; }
    QComboBox* branchModeBox() const { return m_branchMode; }
    QDoubleSpinBox* passBox() const { return m_passMs; }
    QDoubleSpinBox* prefillBox() const { return m_prefillMs; }
    QComboBox* sourceBox() const;
    QLabel* sourceErrorLabel() const;
    QLabel* replayLabel() const { return m_replayInfo; }
    QLabel* nearTieLabel() const { return m_nearTies; }
    QPushButton* nearTieButton() const { return m_toBatchInvariance; }
    QProgressBar* loadProgress() const;
    const std::shared_ptr<const app::ImportedLogitsSource>& importedSource() const { return m_imported; }
    const std::shared_ptr<const engine::StepLogitsSource>& modelSource() const { return m_modelSource; }
    QLineEdit* modelFileField() const;
    QLabel* modelInfoLabel() const;

signals:
    // The page shows its runs anew (a step, a rewind, a new run): the presentation follows.
    void runShown();

protected:
    QString readExperimentFile(const QString& path) override;
    QString writeExperimentFile(const QString& path) override;
    void runStateChanged() override;
    QJsonObject controlsJson() const override;
    void showEvent(QShowEvent* event) override;

private:
    // The loop the controls describe, made anew when they changed since it was made.
    // A replay whose file is not open yet starts opening it and calls `retry` when it is.
    bool ensureLoop(std::function<void()> retry = {});
    // The first steps of the run the controls describe (and its branch), within one slice of the
    // UI thread: the page is never blank the first time it is shown.
    void takeFirstSteps();
    // Drops the runs shown (the controls changed what they are of) and the error.
    void clearRuns();
    void showSourceError(const QString& message);
    void showSourceRows();
    void showReplayAndTies();
    void playTick();
    void branchSlice();
    // While stepping: the page follows the new steps within kFollowMs. At the end: all of it now.
    void followSteps();
    void finishStepping();
    // `whole`: also the steps chart and table (every step); ticks of Play and a branch pass
    // false, and those follow at most every kWholeRefreshMs.
    void refresh(bool whole = true);
    void showLatency();

    LoopStepsModel* m_model;
    LoopStepChart* m_stepChart;
    LoopStepsChart* m_stepsChart;
    app::RunController<app::LoopOutcome>* m_runs;
    app::RunController<LoadedReplay>* m_loads;
    LoopSourcePanel* m_sourcePanel;
    std::shared_ptr<const engine::StepLogitsSource> m_modelSource;
    QJsonObject m_modelKey;  // the model file, base folder and prompt m_modelSource was made for
    QLabel* m_replayInfo;
    QLabel* m_nearTies;
    QPushButton* m_toBatchInvariance;
    std::shared_ptr<const app::ImportedLogitsSource> m_imported;
    QJsonObject m_importedKey;  // the logits object and base folder m_imported was opened for
    QLineEdit* m_prompt;
    QComboBox* m_semantics;
    QLineEdit* m_chain;
    QSpinBox* m_seed;
    QComboBox* m_rng;
    QSpinBox* m_steps;
    QComboBox* m_branchMode;
    QSpinBox* m_branchAt;
    QLineEdit* m_branchToken;
    QSpinBox* m_branchSeed;
    QDoubleSpinBox* m_prefillMs;
    QDoubleSpinBox* m_passMs;
    QLabel* m_latency;
    QPushButton* m_stepButton;
    QPushButton* m_playButton;
    QPushButton* m_stopButton;
    QPushButton* m_rewindButton;
    QPushButton* m_branchButton;
    QSpinBox* m_shownStep;
    QTextBrowser* m_mainText;
    LoopTokenStrip* m_strip;
    QTextBrowser* m_branchText;
    QLabel* m_divergence;
    QLabel* m_stepInfo;  // the shown step's survivors, cut, entropy and mu
    QTableView* m_table;
    QTimer* m_playTimer;
    QTimer* m_branchTimer;
    QTimer* m_followTimer;  // the page follows Play's and a branch's new steps when it fires
    QElapsedTimer m_playClock;
    QElapsedTimer m_wholeRefresh;
    QElapsedTimer m_stepRefresh;
    // The step the distribution chart shows, so that a refresh draws it only when it changed.
    struct ShownStep {
        quint64 generation = 0;
        std::size_t index = 0;
        std::int32_t token = -1;
        double probability = 0.0;
        bool forced = false;
        bool operator==(const ShownStep&) const = default;
    };
    ShownStep m_shownStepDrawn;
    LoopRunText m_mainRunText;
    LoopRunText m_branchRunText;
    std::size_t m_playStartSteps = 0;

    app::LoopStepper m_stepper;  // the main run and its branch
    bool m_followLatest = true;
    bool m_shownOnce = false;
    QString m_name = QStringLiteral("loop");  // the file's name and description, kept on save
    QString m_description;
};

}  // namespace logitlab::ui
