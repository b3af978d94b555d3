// The junk-risk page: the experiment's parameters as controls (or opened from an experiment
// file), the risk chart and the results table. The run lifecycle (Run / Cancel, progress, only
// whole finished runs shown) is ExperimentPage's.
#pragma once

#include "junk_risk_job.h"
#include "junk_risk_spec.h"
#include "experiment_page.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QTableView;
QT_END_NAMESPACE

namespace logitlab::ui {

class JunkRiskChart;
class ResultTableModel;

class JunkRiskPage : public ExperimentPage {
    Q_OBJECT
public:
    explicit JunkRiskPage(QWidget* parent = nullptr);

    QString id() const override { return QStringLiteral("junk-risk"); }
    QString title() const override;
    QChart* chart() const override;
    QAbstractItemModel* resultsModel() const override;
    std::optional<app::ResultTable> resultTable() const override;
    app::Provenance provenance() const override;
    // Runs on logits from elsewhere (the Explorer's table); the other parameters stay.
    bool acceptDistribution(const engine::Distribution& distribution) override;

    void setSpec(const app::JunkRiskSpec& spec, const QString& baseDir);
    void useLogits(const engine::Distribution& distribution) { acceptDistribution(distribution); }
    // The controls as an experiment; an error names the control and is shown inline.
    engine::Result<app::JunkRiskSpec> specFromControls() const;

    void run() override;
    ResultTableModel* model() const { return m_model; }
    QSpinBox* repliesBox() const { return m_replies; }
    QSpinBox* threadsBox() const { return m_threads; }

protected:
    QString readExperimentFile(const QString& path) override;
    QString writeExperimentFile(const QString& path) override;
    void runStateChanged() override;

private:
    void showResults(const app::JunkRiskSpec& spec, const app::JunkRiskOutcome& outcome);
    QJsonObject controlsJson() const override;

    ResultTableModel* m_model;  // the result table logitlab-cli run writes for the same file
    JunkRiskChart* m_chart;
    app::RunController<app::JunkRiskOutcome>* m_runs;
    app::JunkRiskSpec m_loaded;      // the distribution "as in the file" comes from here
    app::JunkRiskSpec m_resultSpec;  // what the shown results were computed from
    std::vector<engine::JunkRiskRow> m_rows;  // the shown results, for the chart
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
    QTableView* m_table;
};

} // namespace logitlab::ui
