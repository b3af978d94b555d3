// The junk-risk experiment's controls: where the steps come from (one distribution the same at
// every step, a logits file's steps, or the built-in model's reply to a prompt), the
// distribution (as in the file, Zipf, normal, or q per token typed directly, refused inline
// when it is not a probability), the junk definition, the decoding settings one per line, the
// lengths N, the Monte Carlo replies and their RNG. A reply's inputs are checked as they are
// typed, next to them.
#pragma once

#include "app/kinds/junk_risk_spec.h"
#include "ui/forms/kind_form.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
QT_END_NAMESPACE

namespace logitlab::ui {

class JunkRiskForm : public SpecForm<app::JunkRiskSpec> {
    Q_OBJECT
public:
    explicit JunkRiskForm(QWidget* parent = nullptr);

    // The lesson's case, the page's starting point: banana holds 0.4% at every step.
    static app::JunkRiskSpec lessonSpec();

    engine::Result<app::JunkRiskSpec> specFromControls() const override;
    void setSpec(const app::JunkRiskSpec& spec) override;
    void reset() override;
    QList<QWidget*> displayOnlyControls() const override;
    int workerThreads() const override;
    // Logits from elsewhere (the Explorer's table) as the one distribution; the rest stays, and
    // junk given by token ids that now name other tokens is said next to the junk row.
    void useLogits(const engine::Distribution& distribution);
    // Along the reply the GGUF model at `path` writes to the prompt; the rest stays.
    bool useModel(const QString& path) override;

    // "One distribution" or "along a reply" (a file's steps, or the built-in model's reply).
    enum Mode { OneDistribution, FileSteps, BuiltinReply };
    QComboBox* modeBox() const { return m_mode; }
    QLineEdit* stepsFileField() const { return m_stepsFile; }
    QLineEdit* stepRangeField() const { return m_stepRange; }
    QLineEdit* promptField() const { return m_prompt; }
    QLineEdit* replyModelField() const { return m_replyModel; }
    QSpinBox* replyLengthBox() const { return m_replyLength; }
    QLineEdit* replyChainField() const { return m_replyChain; }
    QSpinBox* replySeedBox() const { return m_replySeed; }
    QLabel* replyErrorLabel() const { return m_replyError; }  // the inline error of the reply's inputs
    QSpinBox* repliesBox() const { return m_replies; }
    QSpinBox* threadsBox() const { return m_threads; }
    QLineEdit* qField() const { return m_q; }
    QLabel* qErrorLabel() const { return m_qError; }
    QCheckBox* logLengthBox() const { return m_logN; }
    // Shown after logits from elsewhere when the junk ids now name other tokens.
    QLabel* junkWarningLabel() const { return m_junkWarning; }

private:
    void showModeRows();
    void checkQField();       // the inline error next to the q field
    void checkReplyFields();  // the inline error next to the reply's inputs
    QString replyFieldsProblem() const;

    app::JunkRiskSpec m_loaded;  // the distribution "as in the file" comes from here
    QFormLayout* m_form;
    QComboBox* m_mode;
    QLineEdit* m_stepsFile;
    QLineEdit* m_stepRange;
    QLineEdit* m_prompt;
    QLineEdit* m_replyModel;  // a GGUF file writes the reply; empty: the built-in model
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
    QLabel* m_junkWarning;  // after a hand-off: junk ids chosen for other logits
    QPlainTextEdit* m_settings;
    QLineEdit* m_lengths;
    QSpinBox* m_replies;
    QSpinBox* m_seed;
    QComboBox* m_rng;
    QSpinBox* m_threads;
    QCheckBox* m_logN;
};

}  // namespace logitlab::ui
