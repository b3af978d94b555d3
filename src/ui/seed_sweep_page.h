// The seed-sweep page: is the sampler right, does a seed replay, how much do answers vary by
// seed. Parameters as controls (or from an experiment file), Run / Cancel on the shared runner
// with progress in the status bar, three charts (p-values, spread, counts), per-seed and
// per-token tables, and a replay check of any swept seed. Only whole, finished runs reach the
// charts and tables; a cancelled run leaves the previous results as they were.
#pragma once

#include "page.h"
#include "seed_sweep_job.h"
#include "seed_sweep_spec.h"

#include <QFutureWatcher>

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

class SeedResultsModel;
class SeedSweepCharts;
class TokenSpreadModel;

class SeedSweepPage : public Page {
    Q_OBJECT
public:
    enum Source { LessonExercise, LessonExample, ExplorerLogits, LogitsFile, AsInExperimentFile };

    explicit SeedSweepPage(QWidget* parent = nullptr);
    ~SeedSweepPage() override;  // cancels a running sweep and waits for it

    QString title() const override;
    QChart* chart() const override;                    // the chart on the current tab
    QAbstractItemModel* resultsModel() const override; // the per-seed table on its tab, else per token
    app::Provenance provenance() const override;
    void cancel() override;

    QString openFile(const QString& path);  // an error message, or empty
    QString saveFile(const QString& path);
    void setSpec(const app::SeedSweepSpec& spec, const QString& baseDir);
    void useLogits(const engine::Distribution& distribution);
    engine::Result<app::SeedSweepSpec> specFromControls() const;

    void run();
    bool isRunning() const;
    // Draws `seed` again and says whether it replayed bit for bit (the answer also goes to
    // replayLabel()). The seed must be one of the last run's.
    QString replay(qint64 seed);

    SeedResultsModel* seedModel() const { return m_seedModel; }
    TokenSpreadModel* tokenModel() const { return m_tokenModel; }
    QLabel* errorLabel() const { return m_error; }
    QLabel* verdictLabel() const { return m_verdict; }
    QLabel* replayLabel() const { return m_replayResult; }
    QLineEdit* chainEdit() const { return m_chain; }
    QSpinBox* seedCountBox() const { return m_seedCount; }
    QSpinBox* drawsBox() const { return m_draws; }
    QSpinBox* threadsBox() const { return m_threads; }
    QTabWidget* tabs() const { return m_tabs; }
    const app::SeedSweepOutcome& outcome() const { return m_outcome; }

signals:
    void runEnded(bool completed);

private:
    void onFinished();
    void updateEnabled();
    void showError(const QString& message);

    QFutureWatcher<app::SeedSweepOutcome> m_watcher;
    app::SeedSweepSpec m_pendingSpec;
    app::SeedSweepSpec m_resultSpec;
    app::SeedSweepOutcome m_outcome;
    bool m_hasResults = false;
    QString m_baseDir;
    QString m_filePath;                      // LogitsFile: the file
    engine::Distribution m_explorerLogits;   // ExplorerLogits: the logits handed over
    app::DistributionSpec m_loaded;          // AsInExperimentFile: the opened file's distribution

    SeedSweepCharts* m_charts;
    SeedResultsModel* m_seedModel;
    TokenSpreadModel* m_tokenModel;
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
    QPushButton* m_run;
    QPushButton* m_cancel;
    QSpinBox* m_replaySeed;
    QPushButton* m_replay;
    QLabel* m_replayResult;
    QLabel* m_verdict;
    QLabel* m_error;
    QTabWidget* m_tabs;
};

}  // namespace logitlab::ui
