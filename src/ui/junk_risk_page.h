// The junk-risk page: the experiment's parameters as controls (or opened from an experiment
// file), the risk chart and the results table, and the lesson's terms beside them: each
// setting's per-token junk probability q, the junk tokens by name, and P(at least one junk
// token) and P(no junk token) at a chosen N. q can also be typed directly ("q per token"). The run lifecycle (Run / Cancel, progress, only
// whole finished runs shown) is ExperimentPage's.
// "Along a reply" replaces the one distribution by a reply's steps (an imported file's rows, or
// the built-in model's reply to a prompt): q changes per step, and the charts show q_t and the
// cumulative risk 1 - prod (1 - q_t) by step.
#pragma once

#include "junk_risk_job.h"
#include "junk_risk_spec.h"
#include "experiment_page.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QStackedWidget;
class QTableView;
QT_END_NAMESPACE

namespace logitlab::ui {

class JunkRiskChart;
class ReplyJunkRiskChart;
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
    QLineEdit* qField() const { return m_q; }
    QLabel* qErrorLabel() const { return m_qError; }
    QSpinBox* highlightBox() const { return m_highlight; }
    QLabel* lessonLabel() const { return m_lessonText; }
    JunkRiskChart* riskChart() const { return m_chart; }
    // "One distribution" or "along a reply" (a file's steps, or the built-in model's reply).
    enum Mode { OneDistribution, FileSteps, BuiltinReply };
    QComboBox* modeBox() const { return m_mode; }
    QLineEdit* stepsFileField() const { return m_stepsFile; }
    QLineEdit* stepRangeField() const { return m_stepRange; }
    QLineEdit* promptField() const { return m_prompt; }
    QSpinBox* replyLengthBox() const { return m_replyLength; }
    QLineEdit* replyChainField() const { return m_replyChain; }
    QSpinBox* replySeedBox() const { return m_replySeed; }
    QLabel* replyErrorLabel() const { return m_replyError; }  // the inline error of the reply's inputs
    ReplyJunkRiskChart* replyChart() const { return m_replyChart; }
    // The highlighted numbers as shown (empty before a run).
    const std::vector<engine::JunkRiskHighlight>& highlights() const { return m_highlights; }

protected:
    QString readExperimentFile(const QString& path) override;
    QString writeExperimentFile(const QString& path) override;
    void runStateChanged() override;

private:
    void showResults(const app::JunkRiskSpec& spec, const app::JunkRiskOutcome& outcome);
    void showLessonTerms();  // the highlight at the chosen N, from the shown results
    void checkQField();      // the inline error next to the q field
    void checkReplyFields(); // the inline error next to the reply's inputs
    QString replyFieldsProblem() const;
    QJsonObject controlsJson() const override;

    ResultTableModel* m_model;  // the result table logitlab-cli run writes for the same file
    JunkRiskChart* m_chart;
    app::RunController<app::JunkRiskOutcome>* m_runs;
    app::JunkRiskSpec m_loaded;      // the distribution "as in the file" comes from here
    app::JunkRiskSpec m_resultSpec;  // what the shown results were computed from
    std::vector<engine::JunkRiskRow> m_rows;  // the shown results, for the chart
    std::vector<engine::ReplyJunkRiskRow> m_replyRows;  // ... along a reply
    bool m_hasResults = false;
    std::size_t m_junkCount = 0;
    QStringList m_junkNames;
    std::vector<engine::JunkRiskHighlight> m_highlights;

    ReplyJunkRiskChart* m_replyChart;
    QStackedWidget* m_charts;  // the N chart, or the two charts along a reply
    QComboBox* m_mode;
    QLineEdit* m_stepsFile;
    QLineEdit* m_stepRange;
    QLineEdit* m_prompt;
    QSpinBox* m_replyLength;
    QLineEdit* m_replyChain;
    QSpinBox* m_replySeed;
    QLabel* m_replyError;
    QComboBox* m_distribution;
    QSpinBox* m_vocabulary;
    QDoubleSpinBox* m_shape;
    QLineEdit* m_q;
    QLabel* m_qError;
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
    QSpinBox* m_highlight;
    QLabel* m_lessonText;
    QTableView* m_table;
};

} // namespace logitlab::ui
