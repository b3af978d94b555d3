// The seed-sweep page: is the sampler right, does a seed replay, how much do answers vary by
// seed. Parameters as controls (or from an experiment file), three charts (p-values, spread,
// counts), per-seed and per-token tables, and a replay check of any swept seed, run on a worker
// like the sweep. Beside the statistics, the verdict in plain words (app::seedSweepPlainWords),
// and each statistic's meaning as its tooltip; a statistic that is not valid for the run (too
// few draws per token) is shown as not valid rather than as a number. It never opens blank: the
// first time it is shown without results it runs the sweep its controls describe (the lesson's
// exercise). The run lifecycle (Run / Cancel, progress, only whole finished runs shown) is
// ExperimentPage's.
#pragma once

#include "experiment_page.h"
#include "seed_sweep_job.h"
#include "seed_sweep_spec.h"

#include <QHash>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
QT_END_NAMESPACE

namespace logitlab::ui {

class ResultTableModel;
class SeedSweepCharts;

class SeedSweepPage : public ExperimentPage {
    Q_OBJECT
public:
    enum Source { LessonExercise, LessonExample, ExplorerLogits, LogitsFile, AsInExperimentFile };
    enum Tab { PValuesTab, SpreadTab, CountsTab, SeedsTab, TokensTab };

    explicit SeedSweepPage(QWidget* parent = nullptr);

    QString id() const override { return QStringLiteral("seed-sweep"); }
    QString title() const override;
    QChart* chart() const override;                    // the chart on the current tab
    QAbstractItemModel* resultsModel() const override; // the per-seed table on its tab, else per token
    std::optional<app::ResultTable> resultTable() const override;  // that table, as logitlab-cli run writes it
    app::Provenance provenance() const override;
    // Sweeps logits from elsewhere (the Explorer's table): the distribution becomes "Explorer's logits".
    bool acceptDistribution(const engine::Distribution& distribution) override;

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
    QJsonObject controlsJson() const override;
    void showReplay(const QString& message);

    app::RunController<app::SeedSweepOutcome>* m_runs;
    app::RunController<QString>* m_replays;
    app::SeedSweepSpec m_resultSpec;
    app::SeedSweepOutcome m_outcome;
    bool m_hasResults = false;
    QString m_filePath;                      // LogitsFile: the file
    engine::Distribution m_explorerLogits;   // ExplorerLogits: the logits handed over
    app::DistributionSpec m_loaded;          // AsInExperimentFile: the opened file's distribution

    SeedSweepCharts* m_charts;
    ResultTableModel* m_seedModel;   // <name>-seeds.csv of logitlab-cli run
    ResultTableModel* m_tokenModel;  // <name>.csv
    QComboBox* m_source;
    QComboBox* m_semantics;
    QLineEdit* m_chain;
    QComboBox* m_rng;
    QSpinBox* m_firstSeed;
    QSpinBox* m_seedCount;
    QSpinBox* m_draws;
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
};

}  // namespace logitlab::ui
