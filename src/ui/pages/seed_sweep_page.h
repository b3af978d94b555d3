// The seed-sweep page: is the sampler right, does a seed replay, how much do answers vary by
// seed. Parameters as controls (or from an experiment file), three charts (p-values, spread,
// counts), per-seed and per-token tables, and a replay check of any swept seed, run on a worker
// like the sweep. Beside the statistics, the verdict in plain words (app::seedSweepPlainWords),
// and each statistic's meaning as its tooltip; a statistic that is not valid for the run (too
// few draws per token) is shown as not valid rather than as a number. It never opens blank: the
// first time it is shown without results it runs the sweep its controls describe (the lesson's
// exercise). The run lifecycle (Run / Cancel, progress, only whole finished runs shown) is
// ExperimentPage's.
// A mode switch turns it into a sweep over whole replies ("source": "sequence"): the built-in
// model continues a prompt for N tokens under each seed, and the page shows the distinct replies
// with their seeds, where each first differs from the most common one, and two charts
// (distinct replies against seeds, the first-difference histogram). Counts only: no test.
// With "Every step of the file" (a logits file, or an opened file whose distribution has
// "steps"), the draws sweep runs at each step in turn and shows one row per step.
#pragma once

#include "app/kinds/seed_sweep_job.h"
#include "app/kinds/seed_sweep_spec.h"
#include "app/kinds/sequence_sweep_job.h"
#include "app/kinds/step_sweep_job.h"
#include "ui/pages/experiment_page.h"

#include <QHash>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QFormLayout;
class QGroupBox;
class QSpinBox;
class QStackedWidget;
class QTabWidget;
QT_END_NAMESPACE

namespace logitlab::ui {

class ResultTableModel;
class SeedSweepCharts;
class SequenceSweepCharts;
class StepSweepCharts;

class SeedSweepPage : public ExperimentPage {
    Q_OBJECT
public:
    enum Source { LessonExercise, LessonExample, ExplorerLogits, LogitsFile, AsInExperimentFile };
    enum Tab { PValuesTab, SpreadTab, CountsTab, SeedsTab, TokensTab };
    // What a seed changes: draws from one distribution, or a whole reply of the built-in model.
    enum Mode { DrawsMode, RepliesMode };
    enum ReplyTab { DistinctTab, FirstDifferenceTab, RepliesTab, ReplySeedsTab, FirstDifferenceTableTab };
    enum StepTab { StepPValuesTab, StepTokensTab, StepTableTab };
    // Which results the page shows: the draws of one distribution, whole replies, every step.
    enum View { DrawsView, RepliesView, StepsView };

    // A run of either mode, on the one experiment controller (Run/Cancel follow it).
    struct RunOutcome {
        app::RunStatus status;
        std::uint64_t draws = 0;  // draws, or model passes of the replies
        double seconds = 0.0;
        app::SeedSweepOutcome sweep;                       // DrawsMode
        std::optional<app::SequenceSweepOutcome> replies;  // RepliesMode
        std::optional<app::StepSweepOutcome> steps;        // every step of a file
    };

    explicit SeedSweepPage(QWidget* parent = nullptr);

    QString id() const override;
    QString title() const override;
    QChart* chart() const override;                                // the chart on the current tab
    QAbstractItemModel* resultsModel() const override;             // the per-seed table on its tab, else per token
    std::optional<app::ResultTable> resultTable() const override;  // that table, as logitlab-cli run writes it
    app::Provenance provenance() const override;
    // Sweeps logits from elsewhere (the Explorer's table): the distribution becomes "Explorer's logits".
    bool acceptDistribution(const HandOff& handOff) override;
    // File > Open model here: the GGUF model writes the replies of the sweep, run.
    QString openModel(const QString& path) override;

    void setSpec(const app::SeedSweepSpec& spec, const QString& baseDir);
    void useLogits(const engine::Distribution& distribution) { acceptDistribution(distribution); }
    engine::Result<app::SeedSweepSpec> specFromControls() const;

    void run() override;
    // Draws `seed` again on a worker; replayEnded() and replayLabel() say whether it replayed
    // bit for bit. Returns empty when the replay started, else why not (also in replayLabel()):
    // the seed must be one of the last run's.
    QString replay(qint64 seed);
    bool replayRunning() const;

    ResultTableModel* seedModel() const { return m_seedModel; }
    ResultTableModel* tokenModel() const { return m_tokenModel; }
    QLabel* verdictLabel() const { return m_verdict; }
    QLabel* plainWordsLabel() const { return m_plainWords; }
    // The statistics shown beside the verdict, by name ("ks", "g-ks", "pooled", "bins"): the value
    // label, whose tooltip (like its name's) says what the statistic means.
    QLabel* statisticLabel(const QString& key) const;
    QLabel* replayLabel() const { return m_replayResult; }
    QLineEdit* chainEdit() const { return m_chain; }
    QSpinBox* seedCountBox() const { return m_seedCount; }
    QSpinBox* drawsBox() const { return m_draws; }
    QSpinBox* threadsBox() const { return m_threads; }
    QTabWidget* tabs() const { return m_tabs; }
    const app::SeedSweepOutcome& outcome() const { return m_outcome; }

    QComboBox* modeBox() const { return m_mode; }
    QLineEdit* promptEdit() const { return m_prompt; }
    QLineEdit* replyModelFileEdit() const { return m_replyModelFile; }
    QSpinBox* stepsBox() const { return m_steps; }
    QTabWidget* replyTabs() const { return m_replyTabs; }
    ResultTableModel* replyModel() const { return m_replyModel; }                      // <name>.csv of a replies run
    ResultTableModel* replySeedModel() const { return m_replySeedModel; }              // <name>-seeds.csv
    ResultTableModel* firstDifferenceModel() const { return m_firstDifferenceModel; }  // <name>-first-difference.csv
    QLabel* replySummaryLabel() const { return m_replySummary; }
    const app::SequenceSweepOutcome& sequenceOutcome() const { return m_sequenceOutcome; }
    QCheckBox* everyStepBox() const { return m_everyStep; }
    QTabWidget* stepTabs() const { return m_stepTabs; }
    ResultTableModel* stepModel() const { return m_stepModel; }  // <name>.csv of a per-step run
    View view() const;

signals:
    // A replay ended: the message replayLabel() shows.
    void replayEnded(const QString& message);

protected:
    QString readExperimentFile(const QString& path) override;
    QString writeExperimentFile(const QString& path) override;
    void runStateChanged() override;
    void showEvent(QShowEvent* event) override;

private:
    void showStatistics();
    void showResults(const app::SeedSweepSpec& spec, app::SeedSweepOutcome& outcome);
    void showReplies(const app::SeedSweepSpec& spec, app::SequenceSweepOutcome& outcome);
    void showSteps(const app::SeedSweepSpec& spec, app::StepSweepOutcome& outcome);
    void showMode();
    bool repliesMode() const;
    QJsonObject controlsJson() const override;
    void showReplay(const QString& message);

    app::RunController<RunOutcome>* m_runs;
    app::RunController<QString>* m_replays;
    app::SeedSweepSpec m_resultSpec;
    app::SeedSweepOutcome m_outcome;
    bool m_hasResults = false;
    app::SeedSweepSpec m_sequenceSpec;  // the replies shown were computed for this
    app::SequenceSweepOutcome m_sequenceOutcome;
    bool m_hasReplies = false;
    app::SeedSweepSpec m_stepSpec;  // the per-step rows shown were computed for this
    app::StepSweepOutcome m_stepOutcome;
    bool m_hasSteps = false;
    QString m_filePath;                     // LogitsFile: the file
    engine::Distribution m_explorerLogits;  // ExplorerLogits: the logits handed over
    app::DistributionSpec m_loaded;         // AsInExperimentFile: the opened file's distribution

    SeedSweepCharts* m_charts;
    ResultTableModel* m_seedModel;   // <name>-seeds.csv of logitlab-cli run
    ResultTableModel* m_tokenModel;  // <name>.csv
    QComboBox* m_mode;
    QLineEdit* m_prompt;
    QLineEdit* m_replyModelFile;  // replies mode: a GGUF file, or empty for the built-in model
    QSpinBox* m_steps;
    QFormLayout* m_form;
    QGroupBox* m_replayBox;
    QComboBox* m_source;
    QComboBox* m_semantics;
    QLineEdit* m_chain;
    QComboBox* m_rng;
    QSpinBox* m_firstSeed;
    QSpinBox* m_seedCount;
    QSpinBox* m_draws;
    QCheckBox* m_everyStep;
    QCheckBox* m_compare;
    QSpinBox* m_compareA;
    QSpinBox* m_compareB;
    QSpinBox* m_threads;
    QSpinBox* m_replaySeed;
    QPushButton* m_replay;
    QLabel* m_replayResult;
    QLabel* m_verdict;
    QLabel* m_plainWords;
    QHash<QString, QLabel*> m_statistics;  // value labels by key
    bool m_shownOnce = false;
    QTabWidget* m_tabs;
    SequenceSweepCharts* m_sequenceCharts;
    ResultTableModel* m_replyModel;
    ResultTableModel* m_replySeedModel;
    ResultTableModel* m_firstDifferenceModel;
    QLabel* m_replySummary;  // the replies' or the steps' summary, whichever view is shown
    QString m_repliesText;
    QString m_stepsText;
    QTabWidget* m_replyTabs;
    StepSweepCharts* m_stepCharts;
    ResultTableModel* m_stepModel;
    QTabWidget* m_stepTabs;
    QStackedWidget* m_results;  // by View: m_tabs, m_replyTabs, m_stepTabs
    QWidget* m_drawStatistics;  // the draws' verdict and statistics, hidden for replies
};

}  // namespace logitlab::ui
