// The junk-risk page: the experiment's parameters as controls (or opened from an experiment
// file), Run / Cancel on the shared runner, progress to the status bar, the risk chart and the
// results table. Only whole, finished runs reach the chart and table; a cancelled run leaves
// the previous results as they were.
#pragma once

#include "junk_risk_job.h"
#include "junk_risk_spec.h"
#include "page.h"

#include <QFutureWatcher>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableView;
QT_END_NAMESPACE

namespace logitlab::ui {

class JunkRiskChart;
class JunkRiskTableModel;

class JunkRiskPage : public Page {
    Q_OBJECT
public:
    explicit JunkRiskPage(QWidget* parent = nullptr);
    ~JunkRiskPage() override; // cancels a running experiment and waits for it

    QString title() const override;
    QChart* chart() const override;
    QAbstractItemModel* resultsModel() const override;
    app::Provenance provenance() const override;
    void cancel() override;

    // Shows the file's parameters in the controls; an error is shown inline and returned.
    QString openFile(const QString& path);
    QString saveFile(const QString& path);
    // File > Open/Save experiment in the main window.
    QString openExperiment(const QString& path) override { return openFile(path); }
    QString saveExperiment(const QString& path) override { return saveFile(path); }
    void setSpec(const app::JunkRiskSpec& spec, const QString& baseDir);
    // Runs on logits from elsewhere (e.g. the explorer's table); the other parameters stay.
    void useLogits(const engine::Distribution& distribution);
    // The controls as an experiment; an error names the control and is shown inline.
    engine::Result<app::JunkRiskSpec> specFromControls() const;

    void run();
    bool isRunning() const;
    JunkRiskTableModel* model() const { return m_model; }
    QLabel* errorLabel() const { return m_error; }
    QSpinBox* repliesBox() const { return m_replies; }
    QSpinBox* threadsBox() const { return m_threads; }

signals:
    // After every run: finished with results, or not (cancelled or failed).
    void runEnded(bool completed);

private:
    void onFinished();
    void updateEnabled();

    JunkRiskTableModel* m_model;
    JunkRiskChart* m_chart;
    QFutureWatcher<app::JunkRiskOutcome> m_watcher;
    app::JunkRiskSpec m_loaded;      // the distribution "as in the file" comes from here
    QString m_baseDir;               // where relative paths in the file are resolved
    app::JunkRiskSpec m_pendingSpec; // what the running experiment computes
    app::JunkRiskSpec m_resultSpec;  // what the shown results were computed from
    bool m_hasResults = false;

    QComboBox* m_distribution;
    QSpinBox* m_vocabulary;
    QDoubleSpinBox* m_shape;
    QComboBox* m_junkKind;
    QDoubleSpinBox* m_junkValue;
    QLineEdit* m_junkIds;
    QPlainTextEdit* m_settings;
    QLineEdit* m_lengths;
    QSpinBox* m_replies;
    QSpinBox* m_seed;
    QComboBox* m_rng;
    QSpinBox* m_threads;
    QCheckBox* m_logN;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QLabel* m_error;
    QTableView* m_table;
};

} // namespace logitlab::ui
