#include "ui/forms/batch_invariance_form.h"

#include "app/io/experiment_file.h"
#include "engine/experiments/load_trace.h"
#include "ui/forms/file_field.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

#include <cmath>
#include <limits>

namespace logitlab::ui {

namespace {

// The worked examples' names: each says its study, so a start switched to the other study takes
// the other's name instead of labelling a one-step result "decode".
QString exampleName(app::BatchInvarianceSpec::Study study)
{
    switch (study) {
    case app::BatchInvarianceSpec::Study::OneStep:
        return QStringLiteral("batch-invariance-one-step");
    case app::BatchInvarianceSpec::Study::Decode:
        break;
    case app::BatchInvarianceSpec::Study::ModelDecode:
        return QStringLiteral("batch-invariance-model");
    }
    return QStringLiteral("batch-invariance-decode");
}

using Spec = app::BatchInvarianceSpec;
enum TraceChoice { SeededTrace, TraceFile, InlineTrace };

QSpinBox* spin(qint64 min, qint64 max, const QString& tip)
{
    auto* box = new QSpinBox;
    box->setRange(static_cast<int>(min), static_cast<int>(std::min<qint64>(max, std::numeric_limits<int>::max())));
    box->setGroupSeparatorShown(true);
    box->setToolTip(tip);
    return box;
}

}  // namespace

Spec BatchInvarianceForm::startSpec()
{
    Spec spec;
    spec.name = exampleName(Spec::Study::Decode);
    spec.vocabulary = 2048;
    spec.hidden = 64;
    spec.runs = 100;
    spec.steps = 50;
    return spec;
}

BatchInvarianceForm::BatchInvarianceForm(QWidget* parent)
    : SpecForm(app::parseBatchInvariance, parent), m_study(new QComboBox),
      m_vocabulary(spin(engine::ToyModelParameters::kMinVocabulary, engine::ToyModelParameters::kMaxVocabulary,
                        tr("V, the LM head's rows: the vocabulary size (up to 131,072)."))),
      m_hidden(spin(engine::ToyModelParameters::kMinHidden, engine::ToyModelParameters::kMaxHidden,
                    tr("d, the hidden size: the length of every sum the LM head reduces (up to 4,096)."))),
      m_modelSeed(spin(0, app::kMaxSeed, tr("Every weight of the toy model comes from this seed."))),
      m_twinShare(new QDoubleSpinBox), m_twinDistance(new QLineEdit),
      m_maxBatch(
          spin(1, engine::kMaxBatch, tr("B: batch sizes 1..B (the flip map's range; seeded traces stay in it)."))),
      m_plan(new QLabel), m_float32(new QCheckBox(QStringLiteral("float32"))),
      m_bf16(new QCheckBox(QStringLiteral("bf16"))), m_float16(new QCheckBox(QStringLiteral("float16"))),
      m_precision(new QComboBox),
      m_prompts(spin(1, engine::BatchFlipParameters::kMaxPrompts, tr("Seeded prompts the search walks greedily."))),
      m_searchSteps(spin(1, engine::BatchFlipParameters::kMaxStepsPerPrompt,
                         tr("Greedy steps per searched prompt; each step is one state."))),
      m_promptSeed(spin(0, app::kMaxSeed, tr("The decode's prompt comes from this seed."))),
      m_promptLength(
          spin(0, engine::BatchDecodeParameters::kMaxPromptLength, tr("Prompt tokens read before the decode."))),
      m_runs(
          spin(1, engine::BatchDecodeParameters::kMaxRuns, tr("R: runs of the same prompt, each under its own load."))),
      m_steps(spin(1, engine::BatchDecodeParameters::kMaxSteps, tr("T: greedy steps per run."))),
      m_traceKind(new QComboBox),
      m_traceSeed(spin(0, app::kMaxSeed, tr("Seed of the runs' load traces (run r has its own stream)."))),
      m_traceFile(new QLineEdit), m_measureCost(new QCheckBox(tr("measure the invariant plan's cost"))),
      m_threads(spin(1, 256, tr("Worker threads. Changes the speed, never the numbers."))),
      m_modelRow(new FileField(tr("GGUF model"), FileField::ggufFilter(), [this] { return baseDir(); })),
      m_modelFile(m_modelRow->edit()), m_promptText(new QLineEdit), m_oneStepRows(new QWidget),
      m_decodeRows(new QWidget), m_form(new QFormLayout(this))
{
    m_study->setObjectName(QStringLiteral("study"));
    m_study->addItems({tr("one step"), tr("decode"), tr("decode a GGUF model")});
    m_study->setToolTip(tr("One step: which batch sizes flip a near tie, and the gap against the reduction error. "
                           "Decode: R greedy runs of one prompt under load, against the batch-invariant plan. "
                           "Decode a GGUF model: the model's greedy reply under each batch size's kernel, every "
                           "matrix product of the model computed that kernel's way."));
    m_modelFile->setObjectName(QStringLiteral("modelFile"));
    m_modelFile->setPlaceholderText(tr("model.gguf, relative to the experiment file"));
    m_modelFile->setToolTip(tr("A GGUF model (llama, qwen2 or gpt2) run on the CPU. File > Open model (Ctrl+Shift+O) "
                               "picks it too."));
    m_promptText->setObjectName(QStringLiteral("promptText"));
    m_promptText->setToolTip(tr("The prompt as the model's tokenizer reads it (BOS added as the model says)."));
    connect(m_modelRow, &FileField::chosen, this, &BatchInvarianceForm::useModel);
    m_twinShare->setRange(0.0, 1.0);
    m_twinShare->setDecimals(3);
    m_twinShare->setSingleStep(0.05);
    m_twinShare->setToolTip(
        tr("Share of tokens that are a near twin of the token before (like \"data\" and \" data\"): "
           "their logits nearly tie whenever one of them leads."));
    for (QWidget* w : std::initializer_list<QWidget*>{m_vocabulary, m_hidden, m_modelSeed, m_twinShare, m_maxBatch,
                                                      m_prompts, m_searchSteps, m_promptSeed, m_promptLength, m_runs,
                                                      m_steps, m_traceSeed, m_threads})
        w->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);  // as wide as its text, at any zoom
    m_twinDistance->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    m_twinDistance->setToolTip(
        tr("How far a twin's weights are from its neighbour's, relative to a weight (e.g. 1e-6)."));
    // One line per plan step, not word wrap: a wrapping label makes the form a height-for-width
    // layout, and Qt 6.4's QFormLayout then left rows shown again (a study's own) out of its
    // size hint, so the page gave them no height.
    m_plan->setWordWrap(false);
    m_plan->setToolTip(
        tr("Which kernel serves which batch size (the file's \"plan\"; the server's plan when it has none)."));
    for (const std::string& name : engine::precisionNames())
        m_precision->addItem(QString::fromStdString(name));
    m_precision->setToolTip(tr("float32; bf16 weights and states with float32 sums; float16 weights and states with "
                               "float32 sums and float16 logits."));
    m_traceKind->addItems({tr("seeded"), tr("trace file"), tr("inline sizes")});
    m_traceKind->setToolTip(tr("A trace file holds one batch size per line; run r meets it from line r on."));
    m_traceFile->setPlaceholderText(tr("load.txt, relative to the experiment file"));
    m_measureCost->setToolTip(tr("Times one whole batch's LM head under each plan, for the powers of two up to the "
                                 "largest batch. Timings are shown, never written to the CSV."));
    m_threads->setValue(app::defaultThreadCount());

    auto* form = m_form;
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Study"), m_study);
    form->addRow(tr("Model file"), m_modelRow);
    form->addRow(tr("Prompt"), m_promptText);
    form->addRow(tr("V"), m_vocabulary);
    form->addRow(tr("d"), m_hidden);
    form->addRow(tr("Model seed"), m_modelSeed);
    form->addRow(tr("Twin share"), m_twinShare);
    form->addRow(tr("Twin distance"), m_twinDistance);
    form->addRow(tr("Max batch B"), m_maxBatch);
    form->addRow(tr("Plan"), m_plan);
    auto* precisions = new QHBoxLayout(m_oneStepRows);
    precisions->setContentsMargins(0, 0, 0, 0);
    for (QCheckBox* c : {m_float32, m_bf16, m_float16})
        precisions->addWidget(c);
    form->addRow(tr("Precisions"), m_oneStepRows);
    form->addRow(tr("Prompts searched"), m_prompts);
    form->addRow(tr("Steps per prompt"), m_searchSteps);
    form->addRow(tr("Precision"), m_precision);
    form->addRow(tr("Prompt seed"), m_promptSeed);
    form->addRow(tr("Prompt length"), m_promptLength);
    form->addRow(tr("Runs R"), m_runs);
    form->addRow(tr("Steps T"), m_steps);
    auto* trace = new QHBoxLayout(m_decodeRows);
    trace->setContentsMargins(0, 0, 0, 0);
    trace->addWidget(m_traceKind);
    trace->addWidget(m_traceSeed);
    trace->addWidget(m_traceFile);
    form->addRow(tr("Load"), m_decodeRows);
    form->addRow(QString(), m_measureCost);
    form->addRow(tr("Threads"), m_threads);

    connect(m_study, &QComboBox::currentIndexChanged, this, &BatchInvarianceForm::showStudyRows);
    connect(m_traceKind, &QComboBox::currentIndexChanged, this, &BatchInvarianceForm::showStudyRows);
    setSpec(startSpec());
}

void BatchInvarianceForm::reset()
{
    setBaseDir(QString());
    setSpec(startSpec());
}

QList<QWidget*> BatchInvarianceForm::displayOnlyControls() const { return {m_threads}; }

int BatchInvarianceForm::workerThreads() const { return m_threads->value(); }

void BatchInvarianceForm::setSpec(const Spec& spec)
{
    m_loaded = spec;
    m_study->setCurrentIndex(static_cast<int>(spec.study));
    m_modelFile->setText(spec.modelFile);
    m_promptText->setText(spec.promptText);
    m_vocabulary->setValue(static_cast<int>(spec.vocabulary));
    m_hidden->setValue(static_cast<int>(spec.hidden));
    m_modelSeed->setValue(static_cast<int>(std::min<qint64>(spec.modelSeed, m_modelSeed->maximum())));
    m_twinShare->setValue(spec.twinShare);
    m_twinDistance->setText(QString::number(spec.twinDistance, 'g', 15));
    m_maxBatch->setValue(static_cast<int>(spec.maxBatch));
    m_plan->setText(
        QString::fromStdString(app::toKernelPlan(spec).describe()).replace(QStringLiteral("; "), QStringLiteral("\n")));
    m_float32->setChecked(spec.precisions.contains(QStringLiteral("float32")));
    m_bf16->setChecked(spec.precisions.contains(QStringLiteral("bf16")));
    m_float16->setChecked(spec.precisions.contains(QStringLiteral("float16")));
    m_precision->setCurrentText(spec.precision);
    m_prompts->setValue(static_cast<int>(spec.searchPrompts));
    m_searchSteps->setValue(static_cast<int>(spec.searchSteps));
    m_promptSeed->setValue(static_cast<int>(std::min<qint64>(
        spec.study == Spec::Study::OneStep ? spec.searchSeed : spec.promptSeed, m_promptSeed->maximum())));
    m_promptLength->setValue(static_cast<int>(spec.promptLength));
    m_runs->setValue(static_cast<int>(spec.runs));
    m_steps->setValue(static_cast<int>(spec.steps));
    m_traceKind->setCurrentIndex(!spec.traceFile.isEmpty()    ? TraceFile
                                 : !spec.traceSizes.isEmpty() ? InlineTrace
                                                              : SeededTrace);
    m_traceSeed->setValue(static_cast<int>(std::min<qint64>(spec.traceSeed, m_traceSeed->maximum())));
    m_traceFile->setText(spec.traceFile);
    m_measureCost->setChecked(spec.measureCost);
    showStudyRows();
}

engine::Result<Spec> BatchInvarianceForm::specFromControls() const
{
    Spec spec = m_loaded;
    spec.study = static_cast<Spec::Study>(m_study->currentIndex());
    if (spec.study != m_loaded.study && spec.name == exampleName(m_loaded.study))
        spec.name = exampleName(spec.study);
    spec.modelFile = m_modelFile->text().trimmed();
    spec.promptText = m_promptText->text();
    if (spec.study == Spec::Study::ModelDecode) {
        if (spec.modelFile.isEmpty())
            return engine::Error{tr("Model file: choose a GGUF model (Browse…, or File > Open model)").toStdString()};
        if (spec.promptText.trimmed().isEmpty())
            return engine::Error{tr("Prompt: type the text the model continues").toStdString()};
    }
    spec.vocabulary = m_vocabulary->value();
    spec.hidden = m_hidden->value();
    spec.modelSeed = m_modelSeed->value();
    spec.twinShare = m_twinShare->value();
    bool ok = false;
    spec.twinDistance = m_twinDistance->text().trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(spec.twinDistance) || spec.twinDistance < 0.0 || spec.twinDistance > 1.0)
        return engine::Error{
            tr("Twin distance: '%1' is not a number in [0, 1]").arg(m_twinDistance->text().trimmed()).toStdString()};
    spec.maxBatch = m_maxBatch->value();
    spec.precisions.clear();
    for (QCheckBox* c : {m_float32, m_bf16, m_float16})
        if (c->isChecked())
            spec.precisions << c->text();
    if (spec.study == Spec::Study::OneStep && spec.precisions.isEmpty())
        return engine::Error{tr("Precisions: tick at least one").toStdString()};
    if (spec.precisions.isEmpty())
        spec.precisions = m_loaded.precisions;
    spec.precision = m_precision->currentText();
    spec.searchPrompts = m_prompts->value();
    spec.searchSteps = m_searchSteps->value();
    if (spec.study == Spec::Study::OneStep)
        spec.searchSeed = m_promptSeed->value();
    else
        spec.promptSeed = m_promptSeed->value();
    spec.promptLength = m_promptLength->value();
    spec.runs = m_runs->value();
    spec.steps = m_steps->value();
    spec.traceFile.clear();
    if (m_traceKind->currentIndex() != InlineTrace)
        spec.traceSizes.clear();
    if (m_traceKind->currentIndex() == TraceFile) {
        spec.traceFile = m_traceFile->text().trimmed();
        if (spec.traceFile.isEmpty())
            return engine::Error{tr("Load: name a trace file").toStdString()};
    } else if (m_traceKind->currentIndex() == InlineTrace && spec.traceSizes.isEmpty()) {
        return engine::Error{tr("Load: the file held no sizes; pick seeded traces or a trace file").toStdString()};
    }
    spec.traceSeed = m_traceSeed->value();
    spec.measureCost = m_measureCost->isChecked();
    return spec;
}

bool BatchInvarianceForm::useModel(const QString& path)
{
    m_modelFile->setText(path);
    m_study->setCurrentIndex(static_cast<int>(Spec::Study::ModelDecode));
    if (m_promptText->text().trimmed().isEmpty())
        m_promptText->setText(Spec{}.promptText);
    return true;
}

void BatchInvarianceForm::showStudyRows()
{
    const auto study = static_cast<Spec::Study>(m_study->currentIndex());
    const bool oneStep = study == Spec::Study::OneStep;
    const bool model = study == Spec::Study::ModelDecode;
    for (QWidget* w :
         {static_cast<QWidget*>(m_oneStepRows), static_cast<QWidget*>(m_prompts), static_cast<QWidget*>(m_searchSteps)})
        m_form->setRowVisible(w, oneStep);
    for (QWidget* w : {static_cast<QWidget*>(m_decodeRows), static_cast<QWidget*>(m_precision),
                       static_cast<QWidget*>(m_runs), static_cast<QWidget*>(m_measureCost)})
        m_form->setRowVisible(w, study == Spec::Study::Decode);
    m_form->setRowVisible(m_steps, !oneStep);
    // The toy model's rows, or the GGUF model's.
    for (QWidget* w :
         {static_cast<QWidget*>(m_vocabulary), static_cast<QWidget*>(m_hidden), static_cast<QWidget*>(m_modelSeed),
          static_cast<QWidget*>(m_twinShare), static_cast<QWidget*>(m_twinDistance),
          static_cast<QWidget*>(m_promptSeed), static_cast<QWidget*>(m_promptLength)})
        m_form->setRowVisible(w, !model);
    m_form->setRowVisible(m_modelRow, model);
    m_form->setRowVisible(m_promptText, model);
    m_steps->setToolTip(model ? tr("T: greedy steps of the model's reply, once per kernel the plan uses")
                              : tr("T: greedy steps per run."));
    m_promptSeed->setToolTip(oneStep ? tr("The searched prompts come from this seed.")
                                     : tr("The decode's prompt comes from this seed."));
    m_traceSeed->setVisible(m_traceKind->currentIndex() == SeededTrace);
    m_traceFile->setVisible(m_traceKind->currentIndex() == TraceFile);
    emit layoutChanged();
}

}  // namespace logitlab::ui
