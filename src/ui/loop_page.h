// The Loop page: the autoregressive loop on the built-in model, step by step. A prompt, a chain
// of any stages under a preset (penalties, DRY and mirostat keep their state across steps),
// seed and RNG; Step (F10), Play at the latency model's speed (F5), Stop (Shift+F5), Rewind one
// step (F9), and Run (the experiment file's N steps and branch, on a worker). At the shown step:
// the next-token distribution (top tokens, survivors, the cut), the chosen token with its
// probability and rank; the text so far, streaming. Branch here forces a token (or reseeds the
// draws) at the shown step and continues, and the two runs are shown side by side with the
// first divergent step marked. The latency model states prefill + N passes x time per pass.
// Stepping runs on the UI thread in slices of at most ~20 ms; Run goes to a worker.
#pragma once

#include "experiment_page.h"
#include "generation_loop.h"
#include "loop_job.h"
#include "loop_spec.h"

#include <QElapsedTimer>

#include <optional>

QT_BEGIN_NAMESPACE
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;
class QTextBrowser;
class QTimer;
QT_END_NAMESPACE

namespace logitlab::ui {

class LoopStepChart;
class LoopStepsChart;
class ResultTableModel;

class LoopPage : public ExperimentPage {
    Q_OBJECT
public:
    explicit LoopPage(QWidget* parent = nullptr);
    ~LoopPage() override;

    QString id() const override { return QStringLiteral("loop"); }
    QString title() const override;
    QChart* chart() const override;
    QAbstractItemModel* resultsModel() const override;
    std::optional<app::ResultTable> resultTable() const override;
    app::Provenance provenance() const override;
    void reset() override;

    void setSpec(const app::LoopSpec& spec);
    engine::Result<app::LoopSpec> specFromControls() const;
    void run() override;

    // The page's actions, also for tests.
    void stepOnce();
    void play();
    void stop();
    void rewindOne();
    void branchHere();
    void sendTo(const QString& target);

    const std::optional<engine::GenerationLoop>& mainLoop() const { return m_main; }
    const std::optional<engine::GenerationLoop>& branchLoop() const { return m_branch; }
    bool isPlaying() const;
    bool isBranching() const;
    QLabel* divergenceLabel() const { return m_divergence; }
    QLabel* latencyLabel() const { return m_latency; }
    QTextBrowser* mainText() const { return m_mainText; }
    QSpinBox* shownStepBox() const { return m_shownStep; }
    QLineEdit* branchTokenField() const { return m_branchToken; }
    QLineEdit* promptField() const { return m_prompt; }
    QComboBox* branchModeBox() const { return m_branchMode; }
    QDoubleSpinBox* passBox() const { return m_passMs; }
    QDoubleSpinBox* prefillBox() const { return m_prefillMs; }

protected:
    QString readExperimentFile(const QString& path) override;
    QString writeExperimentFile(const QString& path) override;
    void runStateChanged() override;
    QJsonObject controlsJson() const override;
    void showEvent(QShowEvent* event) override;

private:
    // The loop the controls describe, made anew when they changed since it was made.
    bool ensureLoop();
    void playTick();
    void branchSlice();
    void refresh();
    void showLatency();
    QString runHtml(const engine::GenerationLoop& loop, std::optional<std::size_t> divergence, bool branch) const;
    std::vector<app::LoopTrack> tracks() const;

    ResultTableModel* m_model;
    LoopStepChart* m_stepChart;
    LoopStepsChart* m_stepsChart;
    app::RunController<app::LoopOutcome>* m_runs;
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
    QTextBrowser* m_branchText;
    QLabel* m_divergence;
    QLabel* m_stepInfo;  // the shown step's survivors, cut, entropy and mu
    QTableView* m_table;
    QTimer* m_playTimer;
    QTimer* m_branchTimer;
    QElapsedTimer m_playClock;
    std::size_t m_playStartSteps = 0;

    std::optional<engine::GenerationLoop> m_main;
    std::optional<engine::GenerationLoop> m_branch;
    std::size_t m_branchTarget = 0;
    QJsonObject m_loopKey;  // the controls the loop was made from (without steps and branch)
    bool m_followLatest = true;
    bool m_shownOnce = false;
    QString m_name = QStringLiteral("loop");  // the file's name and description, kept on save
    QString m_description;
};

}  // namespace logitlab::ui
