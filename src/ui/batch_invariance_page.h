// The batch-invariance page: why temperature 0 still varies on a server. The one-step study
// (which batch sizes flip a near tie's argmax; the gap against the reduction error; by
// precision) or the decode study (R greedy runs under load traces against the batch-invariant
// plan: distinct completions, where runs diverge, distinct states per step, the invariant
// plan's measured cost). Controls or an experiment file; every number names its kernel. The
// run lifecycle (Run / Cancel, progress, only whole finished runs shown) is ExperimentPage's.
#pragma once

#include "batch_invariance_job.h"
#include "batch_invariance_spec.h"
#include "experiment_page.h"

#include <memory>
#include <vector>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTabBar;
class QTabWidget;
class QTableView;
QT_END_NAMESPACE

namespace logitlab::ui {

class BatchInvarianceCharts;
class ResultTableModel;

class BatchInvariancePage : public ExperimentPage {
    Q_OBJECT
public:
    explicit BatchInvariancePage(QWidget* parent = nullptr);

    QString id() const override { return QStringLiteral("batch-invariance"); }
    QString title() const override;
    QChart* chart() const override;  // the chart tab shown
    QAbstractItemModel* resultsModel() const override;
    std::optional<app::ResultTable> resultTable() const override;  // the table tab shown
    app::Provenance provenance() const override;
    QString workedExample() const override;

    void setSpec(const app::BatchInvarianceSpec& spec, const QString& baseDir);
    engine::Result<app::BatchInvarianceSpec> specFromControls() const;
    void run() override;

    QComboBox* studyBox() const { return m_study; }
    QSpinBox* runsBox() const { return m_runs; }
    QSpinBox* threadsBox() const { return m_threads; }
    QLabel* findingsLabel() const { return m_findings; }
    // The Loop page's near tie, explained (empty until one is handed over).
    QLabel* fromLoopLabel() const { return m_fromLoop; }
    // A step's distribution from the Loop page (a greedy near tie): the one-step study, and the
    // gap between its two most likely tokens said next to the controls.
    bool acceptDistribution(const engine::Distribution& distribution) override;
    ResultTableModel* model() const { return m_model; }
    // The outcome shown (null before a run).
    const app::BatchInvarianceOutcome* outcome() const { return m_outcome.get(); }

protected:
    QString readExperimentFile(const QString& path) override;
    QString writeExperimentFile(const QString& path) override;
    void runStateChanged() override;
    void showEvent(QShowEvent* event) override;

private:
    void showOutcome(app::BatchInvarianceOutcome& outcome);
    void showTable(int index);
    void showFindings();
    QJsonObject controlsJson() const override;

    ResultTableModel* m_model;
    BatchInvarianceCharts* m_charts;
    app::RunController<app::BatchInvarianceOutcome>* m_runController;
    app::BatchInvarianceSpec m_loaded;  // what the controls do not show (the plan) comes from here
    std::shared_ptr<const app::BatchInvarianceOutcome> m_outcome;
    std::vector<app::ResultTable> m_tables;

    QComboBox* m_study;
    QLabel* m_fromLoop;
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
    QWidget* m_oneStepRows;
    QWidget* m_decodeRows;
    QTabWidget* m_chartTabs;
    QTabBar* m_tableTabs;
    QLabel* m_findings;
    QTableView* m_table;
    QFormLayout* m_form = nullptr;
    bool m_shownOnce = false;
};

}  // namespace logitlab::ui
