#include "batch_invariance_page.h"

#include "batch_invariance_charts.h"
#include "experiment_file.h"
#include "experiment_runner.h"
#include "load_trace.h"
#include "result_table_model.h"

#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace logitlab::ui {

namespace {

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

// The page's start: the shipped decode example's experiment.
Spec startSpec()
{
    Spec spec;
    spec.name = QStringLiteral("batch-invariance-decode");
    spec.vocabulary = 2048;
    spec.hidden = 64;
    spec.runs = 100;
    spec.steps = 50;
    return spec;
}

}  // namespace

BatchInvariancePage::BatchInvariancePage(QWidget* parent)
    : ExperimentPage(parent), m_model(new ResultTableModel(this)), m_charts(new BatchInvarianceCharts(this)),
      m_runController(new app::RunController<app::BatchInvarianceOutcome>(app::RunControllerBase::Mode::Supersede, this)),
      m_study(new QComboBox), m_fromLoop(new QLabel),
      m_vocabulary(spin(engine::ToyModelParameters::kMinVocabulary, engine::ToyModelParameters::kMaxVocabulary,
                        tr("V, the LM head's rows: the vocabulary size (up to 131,072)."))),
      m_hidden(spin(engine::ToyModelParameters::kMinHidden, engine::ToyModelParameters::kMaxHidden,
                    tr("d, the hidden size: the length of every sum the LM head reduces (up to 4,096)."))),
      m_modelSeed(spin(0, app::kMaxSeed, tr("Every weight of the toy model comes from this seed."))),
      m_twinShare(new QDoubleSpinBox), m_twinDistance(new QLineEdit),
      m_maxBatch(spin(1, engine::kMaxBatch, tr("B: batch sizes 1..B (the flip map's range; seeded traces stay in it)."))),
      m_plan(new QLabel), m_float32(new QCheckBox(QStringLiteral("float32"))), m_bf16(new QCheckBox(QStringLiteral("bf16"))),
      m_float16(new QCheckBox(QStringLiteral("float16"))), m_precision(new QComboBox),
      m_prompts(spin(1, engine::BatchFlipParameters::kMaxPrompts, tr("Seeded prompts the search walks greedily."))),
      m_searchSteps(spin(1, engine::BatchFlipParameters::kMaxStepsPerPrompt, tr("Greedy steps per searched prompt; each step is one state."))),
      m_promptSeed(spin(0, app::kMaxSeed, tr("The decode's prompt comes from this seed."))),
      m_promptLength(spin(0, engine::BatchDecodeParameters::kMaxPromptLength, tr("Prompt tokens read before the decode."))),
      m_runs(spin(1, engine::BatchDecodeParameters::kMaxRuns, tr("R: runs of the same prompt, each under its own load."))),
      m_steps(spin(1, engine::BatchDecodeParameters::kMaxSteps, tr("T: greedy steps per run."))),
      m_traceKind(new QComboBox), m_traceSeed(spin(0, app::kMaxSeed, tr("Seed of the runs' load traces (run r has its own stream)."))),
      m_traceFile(new QLineEdit), m_measureCost(new QCheckBox(tr("measure the invariant plan's cost"))),
      m_threads(spin(1, 256, tr("Worker threads. Changes the speed, never the numbers."))), m_oneStepRows(new QWidget),
      m_decodeRows(new QWidget), m_chartTabs(new QTabWidget), m_tableTabs(new QTabBar), m_findings(new QLabel),
      m_table(new QTableView)
{
    setExperimentRuns(m_runController);
    m_study->addItems({tr("one step"), tr("decode")});
    m_study->setToolTip(tr("One step: which batch sizes flip a near tie, and the gap against the reduction error. "
                            "Decode: R greedy runs of one prompt under load, against the batch-invariant plan."));
    m_twinShare->setRange(0.0, 1.0);
    m_twinShare->setDecimals(3);
    m_twinShare->setSingleStep(0.05);
    m_twinShare->setToolTip(tr("Share of tokens that are a near twin of the token before (like \"data\" and \" data\"): "
                               "their logits nearly tie whenever one of them leads."));
    for (QWidget* w : std::initializer_list<QWidget*>{m_vocabulary, m_hidden, m_modelSeed, m_twinShare, m_maxBatch, m_prompts,
                                                      m_searchSteps, m_promptSeed, m_promptLength, m_runs, m_steps, m_traceSeed, m_threads})
        w->setMaximumWidth(150);
    m_twinDistance->setMaximumWidth(150);
    m_twinDistance->setToolTip(tr("How far a twin's weights are from its neighbour's, relative to a weight (e.g. 1e-6)."));
    m_plan->setWordWrap(true);
    m_plan->setToolTip(tr("Which kernel serves which batch size (the file's \"plan\"; the server's plan when it has none)."));
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
    m_findings->setWordWrap(true);
    m_findings->setTextFormat(Qt::RichText);
    m_findings->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* form = new QFormLayout;
    form->addRow(tr("Study"), m_study);
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
    m_form = form;

    auto* buttons = new QHBoxLayout;
    for (QPushButton* b : {openButton(), saveButton(), runButton(), cancelButton()})
        buttons->addWidget(b);
    auto* controls = new QVBoxLayout;
    controls->addLayout(form);
    controls->addLayout(buttons);
    controls->addWidget(errorLabel());
    m_fromLoop->setWordWrap(true);
    m_fromLoop->hide();
    controls->addWidget(m_fromLoop);
    controls->addStretch();
    auto* controlBox = new QGroupBox(tr("Experiment"));
    controlBox->setLayout(controls);
    auto* scroll = new QScrollArea;
    scroll->setWidget(controlBox);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    for (QChart* c : {m_charts->first(), m_charts->second()}) {
        auto* view = new QChartView(c);  // takes ownership of the QChart
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumHeight(240);
        m_chartTabs->addTab(view, QString());
    }
    m_table->setModel(m_model);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->verticalHeader()->hide();
    connect(m_tableTabs, &QTabBar::currentChanged, this, &BatchInvariancePage::showTable);

    auto* chartPane = new QWidget;
    auto* chartLayout = new QVBoxLayout(chartPane);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->addWidget(staleLabel());
    chartLayout->addWidget(m_chartTabs, 1);
    chartLayout->addWidget(m_findings);
    auto* tablePane = new QWidget;
    auto* tableLayout = new QVBoxLayout(tablePane);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->setSpacing(0);
    tableLayout->addWidget(m_tableTabs);
    tableLayout->addWidget(m_table, 1);
    auto* results = new QSplitter(Qt::Vertical);
    results->addWidget(chartPane);
    results->addWidget(tablePane);
    results->setStretchFactor(0, 3);
    results->setStretchFactor(1, 2);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(scroll);
    split->addWidget(results);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(m_study, &QComboBox::currentIndexChanged, this, &BatchInvariancePage::runStateChanged);
    connect(m_traceKind, &QComboBox::currentIndexChanged, this, &BatchInvariancePage::runStateChanged);
    watchControls(controlBox, {m_threads});
    setSpec(startSpec(), QString());
    showFindings();
    markSaved();
}

QString BatchInvariancePage::title() const
{
    return tr("Batch invariance");
}

QChart* BatchInvariancePage::chart() const
{
    return m_chartTabs->currentIndex() == 1 ? m_charts->second() : m_charts->first();
}

QAbstractItemModel* BatchInvariancePage::resultsModel() const
{
    return m_model;
}

std::optional<app::ResultTable> BatchInvariancePage::resultTable() const
{
    if (m_tables.empty())
        return std::nullopt;
    return m_model->table();
}

app::Provenance BatchInvariancePage::provenance() const
{
    if (m_outcome)
        return app::batchInvarianceProvenance(m_outcome->spec, baseDir());
    const auto spec = specFromControls();
    return app::batchInvarianceProvenance(spec.ok() ? spec.value() : m_loaded, baseDir());
}

QString BatchInvariancePage::workedExample() const
{
    return QStringLiteral(":/examples/batch-invariance-decode.json");
}

void BatchInvariancePage::setSpec(const Spec& spec, const QString& dir)
{
    m_loaded = spec;
    setBaseDir(dir);
    m_study->setCurrentIndex(spec.study == Spec::Study::OneStep ? 0 : 1);
    m_vocabulary->setValue(static_cast<int>(spec.vocabulary));
    m_hidden->setValue(static_cast<int>(spec.hidden));
    m_modelSeed->setValue(static_cast<int>(std::min<qint64>(spec.modelSeed, m_modelSeed->maximum())));
    m_twinShare->setValue(spec.twinShare);
    m_twinDistance->setText(QString::number(spec.twinDistance, 'g', 15));
    m_maxBatch->setValue(static_cast<int>(spec.maxBatch));
    m_plan->setText(QString::fromStdString(app::toKernelPlan(spec).describe()));
    m_float32->setChecked(spec.precisions.contains(QStringLiteral("float32")));
    m_bf16->setChecked(spec.precisions.contains(QStringLiteral("bf16")));
    m_float16->setChecked(spec.precisions.contains(QStringLiteral("float16")));
    m_precision->setCurrentText(spec.precision);
    m_prompts->setValue(static_cast<int>(spec.searchPrompts));
    m_searchSteps->setValue(static_cast<int>(spec.searchSteps));
    m_promptSeed->setValue(static_cast<int>(std::min<qint64>(spec.study == Spec::Study::OneStep ? spec.searchSeed : spec.promptSeed,
                                                             m_promptSeed->maximum())));
    m_promptLength->setValue(static_cast<int>(spec.promptLength));
    m_runs->setValue(static_cast<int>(spec.runs));
    m_steps->setValue(static_cast<int>(spec.steps));
    m_traceKind->setCurrentIndex(!spec.traceFile.isEmpty() ? TraceFile : !spec.traceSizes.isEmpty() ? InlineTrace : SeededTrace);
    m_traceSeed->setValue(static_cast<int>(std::min<qint64>(spec.traceSeed, m_traceSeed->maximum())));
    m_traceFile->setText(spec.traceFile);
    m_measureCost->setChecked(spec.measureCost);
    runStateChanged();
}

engine::Result<Spec> BatchInvariancePage::specFromControls() const
{
    Spec spec = m_loaded;
    spec.study = m_study->currentIndex() == 0 ? Spec::Study::OneStep : Spec::Study::Decode;
    spec.vocabulary = m_vocabulary->value();
    spec.hidden = m_hidden->value();
    spec.modelSeed = m_modelSeed->value();
    spec.twinShare = m_twinShare->value();
    bool ok = false;
    spec.twinDistance = m_twinDistance->text().trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(spec.twinDistance) || spec.twinDistance < 0.0 || spec.twinDistance > 1.0)
        return engine::Error{tr("Twin distance: '%1' is not a number in [0, 1]").arg(m_twinDistance->text().trimmed()).toStdString()};
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
    // The file format's own checks, so the page and the CLI accept exactly the same experiments.
    auto checked = app::parseBatchInvariance(app::toJson(spec), tr("page"));
    if (!checked)
        return engine::Error{checked.error()};
    return checked.value();
}

void BatchInvariancePage::showEvent(QShowEvent* event)
{
    ExperimentPage::showEvent(event);
    // Never a blank pane: the first time the page is on screen without results, run what the
    // controls describe (at the start, the shipped decode example: a fraction of a second).
    if (m_shownOnce)
        return;
    m_shownOnce = true;
    if (!m_outcome && !isRunning())
        run();
}

QString BatchInvariancePage::readExperimentFile(const QString& path)
{
    const auto spec = app::readBatchInvarianceFile(path);
    if (!spec)
        return QString::fromStdString(spec.error());
    setSpec(spec.value(), path.startsWith(QLatin1Char(':')) ? QString() : QFileInfo(path).absolutePath());
    return {};
}

QString BatchInvariancePage::writeExperimentFile(const QString& path)
{
    const auto spec = specFromControls();
    return spec.ok() ? app::writeBatchInvarianceFile(path, spec.value()) : QString::fromStdString(spec.error());
}

void BatchInvariancePage::run()
{
    const auto spec = specFromControls();
    if (!spec) {
        showError(QString::fromStdString(spec.error()));
        return;
    }
    startRun<app::BatchInvarianceOutcome>(
        *m_runController, tr("Running %1…").arg(spec->name),
        [spec = spec.value(), dir = baseDir(), source = tr("page"), threads = m_threads->value()](const app::WorkControl& control) {
            return app::runBatchInvariance(spec, dir, source, threads, control);
        },
        [this](app::BatchInvarianceOutcome& outcome) { showOutcome(outcome); });
}

void BatchInvariancePage::showOutcome(app::BatchInvarianceOutcome& outcome)
{
    m_outcome = std::make_shared<const app::BatchInvarianceOutcome>(std::move(outcome));
    m_charts->setOutcome(*m_outcome);
    m_tables = app::batchInvarianceTables(*m_outcome);
    const bool oneStep = m_outcome->spec.study == Spec::Study::OneStep;
    m_chartTabs->setTabText(0, oneStep ? tr("Flip map") : tr("Divergence positions"));
    m_chartTabs->setTabText(1, oneStep ? tr("Gap vs error") : tr("Distinct states"));
    {
        const QSignalBlocker block(m_tableTabs);
        while (m_tableTabs->count() > 0)
            m_tableTabs->removeTab(0);
        for (const auto& t : m_tables)
            m_tableTabs->addTab(t.title);
        m_tableTabs->setCurrentIndex(0);
    }
    showTable(0);
    showFindings();
    resultsShownFor(app::toJson(m_outcome->spec));
}

void BatchInvariancePage::showTable(int index)
{
    if (index < 0 || index >= static_cast<int>(m_tables.size()))
        return;
    m_model->setTable(m_tables[static_cast<std::size_t>(index)]);
}

void BatchInvariancePage::showFindings()
{
    if (!m_outcome) {
        m_chartTabs->setTabText(0, tr("Chart 1"));
        m_chartTabs->setTabText(1, tr("Chart 2"));
        m_findings->setText(tr("Run to see which batch sizes change the greedy answer, and what batch-invariant kernels cost."));
        return;
    }
    const auto& o = *m_outcome;
    const QLocale locale;
    QStringList lines{app::batchInvarianceSummary(o).toHtmlEscaped()};
    if (o.spec.study == Spec::Study::OneStep) {
        for (const auto& row : o.flips) {
            if (row.batch != 1)
                continue;
            lines << tr("<b>%1</b>: nearest tie at prompt %2, step %3; batch 1 (<i>%4</i>) picks token %5 with gap %6")
                         .arg(QString::fromStdString(row.precision))
                         .arg(row.prompt)
                         .arg(row.step)
                         .arg(QString::fromStdString(row.kernel))
                         .arg(row.token)
                         .arg(locale.toString(row.gap, 'g', 3));
        }
    } else {
        lines << tr("Plan: %1. Batch-invariant plan: <i>invariant</i> for every batch size.").arg(o.plan.toHtmlEscaped());
        if (!o.costs.empty()) {
            QStringList per;
            for (const auto& c : o.costs)
                per << tr("batch %1: %2 ms (<i>%3</i>) vs %4 ms (<i>invariant</i>)")
                           .arg(c.batch)
                           .arg(locale.toString(c.variableMs, 'f', 2), c.variableKernel)
                           .arg(locale.toString(c.invariantMs, 'f', 2));
            lines << tr("Cost of batch invariance on this load: <b>%1x</b> the variable plan's LM-head time (%2).")
                         .arg(locale.toString(o.costRatio, 'f', 2), per.join(QStringLiteral("; ")));
        }
    }
    m_findings->setText(lines.join(QStringLiteral("<br>")));
}

QJsonObject BatchInvariancePage::controlsJson() const
{
    const auto spec = specFromControls();
    return spec.ok() ? app::toJson(spec.value()) : QJsonObject();
}

void BatchInvariancePage::runStateChanged()
{
    const bool oneStep = m_study->currentIndex() == 0;
    for (QWidget* w : {static_cast<QWidget*>(m_oneStepRows), static_cast<QWidget*>(m_prompts), static_cast<QWidget*>(m_searchSteps)})
        m_form->setRowVisible(w, oneStep);
    for (QWidget* w : {static_cast<QWidget*>(m_decodeRows), static_cast<QWidget*>(m_precision), static_cast<QWidget*>(m_runs),
                       static_cast<QWidget*>(m_steps), static_cast<QWidget*>(m_measureCost)})
        m_form->setRowVisible(w, !oneStep);
    m_promptSeed->setToolTip(oneStep ? tr("The searched prompts come from this seed.") : tr("The decode's prompt comes from this seed."));
    m_traceSeed->setVisible(m_traceKind->currentIndex() == SeededTrace);
    m_traceFile->setVisible(m_traceKind->currentIndex() == TraceFile);
}

bool BatchInvariancePage::acceptDistribution(const engine::Distribution& distribution)
{
    const Eigen::Index n = distribution.logits.size();
    if (n < 2)
        return false;
    Eigen::Index first = 0;
    for (Eigen::Index i = 1; i < n; ++i)
        if (distribution.logits[i] > distribution.logits[first])
            first = i;
    Eigen::Index second = first == 0 ? 1 : 0;
    for (Eigen::Index i = 0; i < n; ++i)
        if (i != first && distribution.logits[i] > distribution.logits[second])
            second = i;
    const double gap = distribution.logits[first] - distribution.logits[second];
    const auto name = [&distribution](Eigen::Index id) {
        return QString::fromStdString(distribution.tokenName(id)).toHtmlEscaped();
    };
    m_study->setCurrentIndex(0);  // the one-step study: which batch sizes flip a near tie
    m_fromLoop->setText(tr("<b>From the Loop page</b>: greedy picked '%1' over '%2' by a logit gap of <b>%3</b>. On a "
                           "server the logits come from kernels whose summation order depends on the batch size; when "
                           "the error that order makes exceeds the gap, the argmax flips and T = 0 writes '%2' instead. "
                           "Run the one-step study to see which batch sizes flip near ties, and the gap against the "
                           "reduction error per precision.")
                            .arg(name(first), name(second))
                            .arg(gap, 0, 'g', 3));
    m_fromLoop->show();
    return true;
}

}  // namespace logitlab::ui

