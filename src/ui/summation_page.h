// The summation-order page: why temperature 0 still varies, one link of the chain. The lesson's
// two examples with their bits, then N terms (drawn, pasted or from a file) in a storage and an
// accumulator format, summed in the chosen orders and K random ones: each order's error in
// ULPs, where the random orders land, and how their spread grows with N, with the tables
// `logitlab-cli run` writes for the same file. The run lifecycle is ExperimentPage's.
#pragma once

#include "experiment_page.h"
#include "summation_job.h"
#include "summation_spec.h"

#include <QList>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QTabBar;
class QTabWidget;
class QTableView;
QT_END_NAMESPACE

namespace logitlab::ui {

class ResultTableModel;
class SummationCharts;

class SummationPage : public ExperimentPage {
    Q_OBJECT
public:
    explicit SummationPage(QWidget* parent = nullptr);

    QString id() const override { return QStringLiteral("summation-order"); }
    QString title() const override;
    QChart* chart() const override;  // the chart on the current tab
    QAbstractItemModel* resultsModel() const override;
    std::optional<app::ResultTable> resultTable() const override;  // the table on the current tab
    app::Provenance provenance() const override;
    void reset() override;

    void setSpec(const app::SummationSpec& spec, const QString& baseDir);
    // The controls as an experiment; an error names the control.
    engine::Result<app::SummationSpec> specFromControls() const;
    void run() override;

    SummationCharts* charts() const { return m_charts; }
    QLabel* lessonLabel() const { return m_lesson; }
    QLabel* summaryLabel() const { return m_summary; }
    QSpinBox* termsBox() const { return m_n; }
    QSpinBox* shufflesBox() const { return m_shuffles; }
    QSpinBox* workersBox() const { return m_workers; }
    QComboBox* distributionBox() const { return m_distribution; }
    QPlainTextEdit* pastedBox() const { return m_pasted; }
    QTabWidget* chartTabs() const { return m_chartTabs; }
    QTabBar* tableTabs() const { return m_tableTabs; }

protected:
    QString readExperimentFile(const QString& path) override;
    QString writeExperimentFile(const QString& path) override;
    void runStateChanged() override;
    void showEvent(QShowEvent* event) override;

private:
    void showResults(const app::SummationSpec& spec, const app::SummationOutcome& outcome);
    void showTable(int index);
    QJsonObject controlsJson() const override;

    app::RunController<app::SummationOutcome>* m_runs;
    SummationCharts* m_charts;
    ResultTableModel* m_model;
    std::vector<app::ResultTable> m_tables;
    app::SummationSpec m_loaded;      // the name and spread budget come from here
    app::SummationSpec m_resultSpec;  // what the shown results were computed from
    bool m_hasResults = false;
    bool m_shownOnce = false;

    QFormLayout* m_form = nullptr;
    QHBoxLayout* m_fileRow = nullptr;
    QComboBox* m_distribution;
    QSpinBox* m_n;
    QDoubleSpinBox* m_scale;
    QPlainTextEdit* m_pasted;
    QLineEdit* m_file;
    QComboBox* m_storage;
    QComboBox* m_accumulator;
    QList<QCheckBox*> m_methods;
    QSpinBox* m_shuffles;
    QSpinBox* m_seed;
    QSpinBox* m_split;
    QComboBox* m_lanes;
    QSpinBox* m_threads;
    QComboBox* m_spread;
    QSpinBox* m_workers;
    QLabel* m_lesson;
    QLabel* m_summary;
    QTabWidget* m_chartTabs;
    QTabBar* m_tableTabs;
    QTableView* m_table;
};

}  // namespace logitlab::ui
