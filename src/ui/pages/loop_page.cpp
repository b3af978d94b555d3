#include "ui/pages/loop_page.h"

#include "app/io/gguf_model_file.h"
#include "app/io/logits_array.h"
#include "app/kinds/batch_invariance_spec.h"
#include "app/kinds/explorer_state.h"
#include "app/kinds/junk_risk_spec.h"
#include "app/kinds/loop_spec.h"
#include "charts/loop_charts.h"
#include "charts/token_display.h"
#include "engine/models/builtin_model.h"
#include "engine/models/word_tokens.h"
#include "engine/rng/rng_factory.h"
#include "engine/sampler/explorer_chain.h"
#include "engine/transformer/gguf_model.h"
#include "ui/forms/loop_source_panel.h"
#include "ui/forms/numeric_entry.h"
#include "ui/forms/wrapped_label.h"
#include "ui/models/loop_steps_model.h"
#include "ui/pages/chart_share.h"
#include "ui/pages/control_scroll.h"
#include "ui/pages/loop_presentation.h"
#include "ui/pages/loop_token_strip.h"

#include <QChartView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QShowEvent>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QTextCharFormat>
#include <QTextCursor>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace logitlab::ui {

namespace {

// The longest a slice of stepping may hold the UI thread (the page's budget is 50 ms; the page
// follows the new steps in events of their own).
constexpr qint64 kSliceMs = 8;

// While Play or a branch runs, the page follows the new steps at most this often (30 frames a
// second), in a timer event of its own rather than after each slice.
constexpr int kFollowMs = 33;

// While Play runs, the shown step's distribution chart follows at most this often.
constexpr qint64 kStepChartMs = 100;

// While Play or a branch runs, the steps chart (every step) is rebuilt this often.
constexpr qint64 kWholeRefreshMs = 500;

// How many steps the page takes by itself the first time it is shown.
constexpr std::size_t kFirstSteps = 40;

enum BranchMode { NoBranch = 0, ForceToken = 1, Reseed = 2 };

// The run a GGUF model's source was made for: the file, where a relative path starts, the prompt
// (the source's cache is sized for it and holds its evaluation).
QJsonObject modelKeyOf(const QJsonObject& spec, const QString& baseDir)
{
    return {{QStringLiteral("model-file"), spec.value(QStringLiteral("model-file"))},
            {QStringLiteral("prompt"), spec.value(QStringLiteral("prompt"))},
            {QStringLiteral("base"), baseDir}};
}

// The file a replay's source was opened for: its logits object and where relative paths start.
QJsonObject replayKeyOf(const QJsonObject& spec, const QString& baseDir)
{
    return {{QStringLiteral("logits"), spec.value(QStringLiteral("logits"))}, {QStringLiteral("base"), baseDir}};
}

app::LoopSpec startingSpec()
{
    app::LoopSpec spec;
    spec.name = QStringLiteral("loop");
    spec.prompt = QStringLiteral("The sampler");
    spec.steps = 400;  // the lesson's 400-token answer
    return spec;
}

}  // namespace

LoopPage::LoopPage(QWidget* parent)
    : ExperimentPage(parent), m_model(new LoopStepsModel(this)), m_stepChart(new LoopStepChart(this)),
      m_stepsChart(new LoopStepsChart(this)),
      m_runs(new app::RunController<app::LoopOutcome>(app::RunControllerBase::Mode::Supersede, this)),
      m_loads(new app::RunController<LoadedReplay>(app::RunControllerBase::Mode::Supersede, this)),
      m_sourcePanel(new LoopSourcePanel), m_replayInfo(new QLabel), m_nearTies(new QLabel),
      m_toBatchInvariance(new QPushButton(tr("Near tie → Batch invariance"))), m_prompt(new QLineEdit),
      m_semantics(new QComboBox), m_chain(new QLineEdit), m_seed(new QSpinBox), m_rng(new QComboBox),
      m_steps(new QSpinBox), m_branchMode(new QComboBox), m_branchAt(new QSpinBox), m_branchToken(new QLineEdit),
      m_branchSeed(new QSpinBox), m_prefillMs(new QDoubleSpinBox), m_passMs(new QDoubleSpinBox), m_latency(new QLabel),
      m_stepButton(new QPushButton(tr("Step"))), m_playButton(new QPushButton(tr("Play"))),
      m_stopButton(new QPushButton(tr("Stop"))), m_rewindButton(new QPushButton(tr("Rewind"))),
      m_branchButton(new QPushButton(tr("Branch here"))), m_shownStep(new QSpinBox), m_mainText(new QTextBrowser),
      m_strip(new LoopTokenStrip), m_branchText(new QTextBrowser), m_divergence(new WrappedLabel),
      m_stepInfo(new WrappedLabel), m_table(new QTableView), m_playTimer(new QTimer(this)),
      m_branchTimer(new QTimer(this)), m_followTimer(new QTimer(this)), m_mainRunText(m_mainText),
      m_branchRunText(m_branchText)
{
    setExperimentRuns(m_runs);
    addRuns(m_loads);
    m_replayInfo->setWordWrap(true);
    m_replayInfo->hide();
    m_nearTies->setWordWrap(true);
    m_nearTies->hide();
    m_toBatchInvariance->hide();
    m_toBatchInvariance->setToolTip(
        tr("Explain the shown greedy near tie (or the first) on the Batch invariance page: a "
           "batch-dependent summation error larger than the gap flips T = 0's pick."));
    connect(m_toBatchInvariance, &QPushButton::clicked, this, &LoopPage::openNearTie);
    connect(m_sourcePanel, &LoopSourcePanel::choiceChanged, this, &LoopPage::showSourceRows);
    connect(m_loads, &app::RunControllerBase::progressChanged, m_sourcePanel, &LoopSourcePanel::showProgress);
    setRunText(tr("&Run N"));
    runButton()->setToolTip(tr("Run N steps (and the branch, if one is set) at full speed on a worker, as "
                               "logitlab-cli run does with the saved file."));
    m_prompt->setToolTip(tr("The text the model continues. Words the model never saw are read as unknown."));
    m_semantics->addItems(app::semanticsNames());
    m_chain->setPlaceholderText(tr("empty: the preset's defaults"));
    m_chain->setToolTip(tr("Any chain of the zoo as text, stateful stages included, e.g. "
                           "penalties:last-n=64:repeat=1.3,top-k=40,temperature=0.8 or mirostat-v2:tau=3:eta=0.1. "
                           "temperature=0 is greedy."));
    m_seed->setRange(0, std::numeric_limits<int>::max());
    for (const auto& name : engine::rngNames())
        m_rng->addItem(QString::fromStdString(name));
    m_steps->setRange(1, static_cast<int>(app::kMaxLoopSteps));
    m_steps->setToolTip(
        tr("N, the reply length in tokens: Play and Run N stop there (at most %1).").arg(app::kMaxLoopSteps));
    m_branchMode->addItems({tr("none"), tr("force a token"), tr("reseed the draws")});
    m_branchAt->setRange(0, static_cast<int>(app::kMaxLoopSteps) - 1);
    m_branchToken->setPlaceholderText(tr("token, e.g. the"));
    m_branchSeed->setRange(0, std::numeric_limits<int>::max());
    m_branchSeed->setValue(7);
    for (QDoubleSpinBox* box : {m_prefillMs, m_passMs}) {
        box->setRange(0.0, 100000.0);
        box->setDecimals(1);
        box->setSuffix(tr(" ms"));
    }
    m_prefillMs->setToolTip(tr("The first pass over the whole prompt (prefill), before the first token appears."));
    m_passMs->setValue(25.0);
    m_passMs->setToolTip(tr("One forward pass per output token: the lesson's model takes about 25 ms."));
    m_latency->setWordWrap(true);
    m_latency->setTextFormat(Qt::RichText);

    m_stepButton->setShortcut(QKeySequence(Qt::Key_F10));
    m_stepButton->setToolTip(tr("One forward pass: the next-token distribution, the chain, one token (F10)."));
    m_playButton->setShortcut(QKeySequence(Qt::Key_F8));  // F5 is View > Present
    m_playButton->setToolTip(tr("Step on to N at the latency model's speed: prefill, then one token per pass (F8)."));
    m_stopButton->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F8));
    m_stopButton->setToolTip(tr("Stop playing, branching or running (Shift+F8)."));
    m_rewindButton->setShortcut(QKeySequence(Qt::Key_F9));
    m_rewindButton->setToolTip(
        tr("Back one step, with the chain's state (penalties, mu) and the RNG as they were (F9)."));
    m_branchButton->setToolTip(tr("At the shown step, force the token above (or reseed the draws) and continue to the "
                                  "main run's length; the two runs are compared below."));
    m_shownStep->setToolTip(tr("The step whose next-token distribution the chart shows; Branch here branches there."));
    // F10, F8 and the branch act on what the boxes show, typed values included.
    connect(m_stepButton, &QPushButton::clicked, this, [this] {
        NumericEntry::commitTyped();
        stepOnce();
    });
    connect(m_playButton, &QPushButton::clicked, this, [this] {
        NumericEntry::commitTyped();
        play();
    });
    connect(m_stopButton, &QPushButton::clicked, this, &LoopPage::stop);
    connect(m_rewindButton, &QPushButton::clicked, this, &LoopPage::rewindOne);
    connect(m_branchButton, &QPushButton::clicked, this, [this] {
        NumericEntry::commitTyped();
        branchHere();
    });
    connect(m_playTimer, &QTimer::timeout, this, &LoopPage::playTick);
    // Two points per ~2 px of the steps pane: the line looks the same, and each refresh of it
    // strokes a third of the path a 1,200-point line had.
    m_stepsChart->setPointLimit(400);
    m_branchTimer->setInterval(0);
    connect(m_branchTimer, &QTimer::timeout, this, &LoopPage::branchSlice);
    m_followTimer->setSingleShot(true);
    m_followTimer->setInterval(kFollowMs);
    connect(m_followTimer, &QTimer::timeout, this, [this] { refresh(false); });
    connect(m_shownStep, &QSpinBox::valueChanged, this, [this](int value) {
        const auto& main = m_stepper.main();
        m_followLatest = main && static_cast<std::size_t>(value) + 1 >= main->steps().size();
        refresh();
    });
    connect(m_strip, &LoopTokenStrip::stepChosen, this,
            [this](std::size_t step) { m_shownStep->setValue(static_cast<int>(step)); });
    connect(m_strip, &LoopTokenStrip::branchRequested, this, &LoopPage::branchFrom);
    for (QDoubleSpinBox* box : {m_prefillMs, m_passMs})
        connect(box, &QDoubleSpinBox::valueChanged, this, &LoopPage::showLatency);
    connect(m_steps, &QSpinBox::valueChanged, this, &LoopPage::showLatency);

    auto* form = new QFormLayout;
    form->addRow(tr("Source"), m_sourcePanel->sourceBox());
    form->addRow(m_sourcePanel);
    form->addRow(tr("Prompt"), m_prompt);
    form->addRow(tr("Preset"), m_semantics);
    form->addRow(tr("Chain"), m_chain);
    form->addRow(tr("Seed"), m_seed);
    form->addRow(tr("Generator"), m_rng);
    form->addRow(tr("N steps"), m_steps);
    auto* branchRow = new QHBoxLayout;
    branchRow->addWidget(m_branchMode);
    branchRow->addWidget(new QLabel(tr("at")));
    branchRow->addWidget(m_branchAt);
    form->addRow(tr("Branch"), branchRow);
    auto* branchValues = new QHBoxLayout;
    branchValues->addWidget(m_branchToken);
    branchValues->addWidget(new QLabel(tr("seed")));
    branchValues->addWidget(m_branchSeed);
    form->addRow(tr("Token / seed"), branchValues);
    form->addRow(tr("Prefill"), m_prefillMs);
    form->addRow(tr("Time per pass"), m_passMs);
    auto* steps = new QHBoxLayout;
    for (QPushButton* b : {m_stepButton, m_playButton, m_stopButton, m_rewindButton})
        steps->addWidget(b);
    auto* fileButtons = new QHBoxLayout;
    for (QPushButton* b : {openButton(), saveButton(), runButton(), cancelButton()})
        fileButtons->addWidget(b);
    auto* sendRow = new QHBoxLayout;
    auto* toExplorer = new QPushButton(tr("To Explorer"));
    auto* toJunk = new QPushButton(tr("To junk risk"));
    toExplorer->setToolTip(
        tr("Open the shown step's next-token distribution (the model's logits after the prompt and the "
           "tokens before it) in the Explorer."));
    toJunk->setToolTip(
        tr("Use the shown step's next-token distribution as the junk-risk page's per-step distribution."));
    connect(toExplorer, &QPushButton::clicked, this, [this] { sendTo(app::explorerKind().id()); });
    connect(toJunk, &QPushButton::clicked, this, [this] { sendTo(app::junkRiskKind().id()); });
    sendRow->addWidget(m_branchButton);
    sendRow->addWidget(toExplorer);
    sendRow->addWidget(toJunk);
    auto* controls = new QVBoxLayout;
    controls->addLayout(form);
    controls->addLayout(steps);
    controls->addLayout(sendRow);
    controls->addLayout(fileButtons);
    controls->addWidget(errorLabel());
    controls->addWidget(m_latency);
    controls->addWidget(m_replayInfo);
    controls->addWidget(m_nearTies);
    controls->addWidget(m_toBatchInvariance);
    controls->addStretch();
    auto* controlBox = new QGroupBox(tr("Loop"));
    controlBox->setLayout(controls);

    auto* texts = new QSplitter(Qt::Horizontal);
    for (QTextBrowser* text : {m_mainText, m_branchText}) {
        text->setMinimumHeight(48);
        texts->addWidget(text);
    }
    m_mainText->setToolTip(tr("The main run: the prompt in grey, then the generated text."));
    m_branchText->setToolTip(tr("The branch: the same up to the first divergent step, marked."));
    m_divergence->setWordWrap(true);
    m_stepInfo->setWordWrap(true);
    auto* textPane = new QWidget;
    auto* textLayout = new QVBoxLayout(textPane);
    textLayout->setContentsMargins(0, 0, 0, 0);
    textLayout->addWidget(texts, 1);
    textLayout->addWidget(m_strip);
    textLayout->addWidget(m_divergence);

    auto* stepView = new QChartView(m_stepChart->chart());
    stepView->setRenderHint(QPainter::Antialiasing);
    auto* stepsView = new QChartView(m_stepsChart->chart());
    stepsView->setRenderHint(QPainter::Antialiasing);
    auto* stepPane = new QWidget;
    auto* stepLayout = new QVBoxLayout(stepPane);
    stepLayout->setContentsMargins(0, 0, 0, 0);
    auto* shownRow = new QHBoxLayout;
    shownRow->addWidget(new QLabel(tr("Shown step")));
    shownRow->addWidget(m_shownStep);
    shownRow->addStretch();
    stepLayout->addWidget(staleLabel());
    stepLayout->addLayout(shownRow);
    stepLayout->addWidget(stepView, 1);
    auto* charts = new QSplitter(Qt::Horizontal);
    charts->addWidget(stepPane);
    charts->addWidget(stepsView);
    stepView->setMinimumWidth(240);
    stepsView->setMinimumWidth(170);
    charts->setStretchFactor(0, 3);
    charts->setStretchFactor(1, 2);
    charts->setSizes({600, 400});
    // The shown step's summary spans both charts: in the step chart's column alone it wrapped
    // to five lines at 200% zoom and took the chart's height.
    auto* chartsPane = new QWidget;
    auto* chartsLayout = new QVBoxLayout(chartsPane);
    chartsLayout->setContentsMargins(0, 0, 0, 0);
    chartsLayout->addWidget(charts, 1);
    chartsLayout->addWidget(m_stepInfo);

    m_table->setModel(m_model);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setResizeContentsPrecision(64);
    m_table->verticalHeader()->hide();

    auto* results = new QSplitter(Qt::Vertical);
    results->addWidget(textPane);
    results->addWidget(chartsPane);
    results->addWidget(m_table);
    results->setStretchFactor(0, 1);
    results->setStretchFactor(1, 3);
    results->setStretchFactor(2, 1);
    results->setSizes({170, 390, 150});
    keepChartShare(results, 1, stepView, 0.42);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(controlScroll(controlBox));
    split->addWidget(results);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    watchControls(controlBox, {m_prefillMs, m_passMs});
    setSpec(startingSpec());
    markSaved();
    runStateChanged();
}

LoopPage::~LoopPage() = default;

QString LoopPage::title() const { return tr("Loop"); }

QComboBox* LoopPage::sourceBox() const { return m_sourcePanel->sourceBox(); }

QLabel* LoopPage::sourceErrorLabel() const { return m_sourcePanel->errorLabel(); }

QProgressBar* LoopPage::loadProgress() const { return m_sourcePanel->progressBar(); }

QLineEdit* LoopPage::modelFileField() const { return m_sourcePanel->modelFileField(); }

QLabel* LoopPage::modelInfoLabel() const { return m_sourcePanel->modelInfoLabel(); }

QChart* LoopPage::chart() const { return m_stepChart->chart(); }

QChart* LoopPage::stepsChart() const { return m_stepsChart->chart(); }

QAbstractItemModel* LoopPage::resultsModel() const { return m_model; }

std::optional<app::ResultTable> LoopPage::resultTable() const
{
    // A copy of the rows, not the model's live ones, which the next step changes.
    return app::loopStepsTable(m_stepper.tracks());
}

app::Provenance LoopPage::provenance() const
{
    const auto spec = specFromControls();
    return app::loopProvenance(spec ? spec.value() : startingSpec(), baseDir());
}

void LoopPage::reset()
{
    stop();
    setBaseDir(QString());
    m_sourcePanel->setBaseDir(QString());
    setSpec(startingSpec());
}

void LoopPage::clearRuns()
{
    m_stepper.clear();
    m_followLatest = true;
    showError(QString());
    refresh();
}

QWidget* LoopPage::createPresentation() { return new LoopPresentation(this); }

QString LoopPage::openModel(const QString& path)
{
    const QFileInfo info(path);
    if (!info.isFile())
        return tr("%1: no such file").arg(path);
    stop();
    m_sourcePanel->useModel(info.absoluteFilePath());
    clearRuns();
    takeFirstSteps();
    return {};
}

void LoopPage::setSpec(const app::LoopSpec& spec)
{
    m_name = spec.name;
    m_description = spec.description;
    m_sourcePanel->setFrom(spec);
    showSourceRows();
    m_prompt->setText(spec.prompt);
    m_semantics->setCurrentText(spec.semantics);
    m_chain->setText(spec.chain);
    m_seed->setValue(static_cast<int>(std::min<qint64>(spec.seed, std::numeric_limits<int>::max())));
    m_rng->setCurrentText(spec.rng);
    m_steps->setValue(static_cast<int>(spec.steps > 0 ? spec.steps : app::kMaxLoopSteps));
    m_branchMode->setCurrentIndex(!spec.branch ? NoBranch : spec.branch->seed ? Reseed : ForceToken);
    if (spec.branch) {
        m_branchAt->setValue(static_cast<int>(spec.branch->at));
        if (spec.branch->seed)
            m_branchSeed->setValue(
                static_cast<int>(std::min<qint64>(*spec.branch->seed, std::numeric_limits<int>::max())));
        else
            m_branchToken->setText(spec.branch->token);
    }
    clearRuns();
    showLatency();
}

engine::Result<app::LoopSpec> LoopPage::specFromControls() const
{
    QJsonObject json{{QStringLiteral("logitlab"), app::kExperimentFileVersion},
                     {QStringLiteral("experiment"), app::loopKind().id()},
                     {QStringLiteral("name"), m_name},
                     {QStringLiteral("prompt"), m_prompt->text()},
                     {QStringLiteral("steps"), m_steps->value()},
                     {QStringLiteral("semantics"), m_semantics->currentText()},
                     {QStringLiteral("chain"), m_chain->text()},
                     {QStringLiteral("seed"), m_seed->value()},
                     {QStringLiteral("rng"), m_rng->currentText()}};
    if (!m_description.isEmpty())
        json.insert(QStringLiteral("description"), m_description);
    m_sourcePanel->writeInto(json);
    if (m_sourcePanel->choice() == LoopSourcePanel::ImportedFile) {
        // The file bounds the run: N above its steps is taken as all of them.
        if (m_imported && m_importedKey == replayKeyOf(json, baseDir()) && m_imported->stepCount() &&
            static_cast<std::size_t>(m_steps->value()) >= *m_imported->stepCount())
            json.insert(QStringLiteral("steps"), 0);
    }
    if (m_branchMode->currentIndex() == ForceToken)
        json.insert(QStringLiteral("branch"), QJsonObject{{QStringLiteral("at"), m_branchAt->value()},
                                                          {QStringLiteral("token"), m_branchToken->text()}});
    else if (m_branchMode->currentIndex() == Reseed)
        json.insert(QStringLiteral("branch"), QJsonObject{{QStringLiteral("at"), m_branchAt->value()},
                                                          {QStringLiteral("seed"), m_branchSeed->value()}});
    return app::parseLoop(json, tr("controls"));
}

QJsonObject LoopPage::controlsJson() const
{
    const auto spec = specFromControls();
    return spec ? app::toJson(spec.value()) : QJsonObject();
}

QString LoopPage::readExperimentFile(const QString& path)
{
    const auto spec = app::readLoopFile(path);
    if (!spec)
        return QString::fromStdString(spec.error());
    stop();
    // A replay's relative logits.path starts at the file's folder, as `logitlab-cli run` reads it.
    setBaseDir(QFileInfo(path).absolutePath());
    m_sourcePanel->setBaseDir(baseDir());
    setSpec(spec.value());
    return {};
}

QString LoopPage::writeExperimentFile(const QString& path)
{
    const auto spec = specFromControls();
    return spec ? app::writeLoopFile(path, spec.value()) : QString::fromStdString(spec.error());
}

void LoopPage::showEvent(QShowEvent* event)
{
    ExperimentPage::showEvent(event);
    // Never a blank pane: the first time the page is on screen without a loop, take the first
    // steps of the run the controls describe (and its branch), within one slice of the UI thread.
    if (m_shownOnce)
        return;
    m_shownOnce = true;
    takeFirstSteps();
}

void LoopPage::takeFirstSteps()
{
    // A file or model still opening comes back here once it is open.
    if (m_stepper.main() || isRunning() || !ensureLoop([this] { takeFirstSteps(); }))
        return;
    const auto spec = specFromControls();
    m_stepper.stepMain(std::min<std::size_t>(static_cast<std::size_t>(spec->steps), kFirstSteps), kSliceMs);
    refresh();
    if (spec->branch && static_cast<std::size_t>(spec->branch->at) < m_stepper.main()->steps().size()) {
        m_shownStep->setValue(static_cast<int>(spec->branch->at));
        branchHere();
    }
}

void LoopPage::runStateChanged()
{
    const bool running = isRunning();
    for (QPushButton* b : {m_stepButton, m_playButton, m_rewindButton, m_branchButton})
        b->setEnabled(!running);
    m_stopButton->setEnabled(running || isPlaying() || isBranching());
}

bool LoopPage::isPlaying() const { return m_playTimer->isActive(); }

bool LoopPage::isBranching() const { return m_branchTimer->isActive(); }

bool LoopPage::ensureLoop(std::function<void()> retry)
{
    const auto spec = specFromControls();
    if (!spec) {
        showError(QString::fromStdString(spec.error()));
        return false;
    }
    showError(QString());
    if (m_stepper.isFor(spec.value()))
        return true;
    std::shared_ptr<const engine::StepLogitsSource> source;
    if (spec->replay) {
        if (!m_imported || m_importedKey != replayKeyOf(app::toJson(spec.value()), baseDir())) {
            loadReplay(std::move(retry));
            return false;
        }
        source = m_imported;
    } else if (!spec->modelFile.isEmpty()) {
        if (!m_modelSource || m_modelKey != modelKeyOf(app::toJson(spec.value()), baseDir())) {
            loadModel(std::move(retry));
            return false;
        }
        source = m_modelSource;
    }
    if (const QString error = m_stepper.start(spec.value(), std::move(source)); !error.isEmpty()) {
        showError(error);
        return false;
    }
    m_followLatest = true;
    return true;
}

void LoopPage::stepOnce()
{
    if (isRunning() || !ensureLoop([this] { stepOnce(); }))
        return;
    const engine::GenerationLoop& main = *m_stepper.main();
    if (main.atEnd()) {
        if (main.source().stepCount())
            emit statusMessage(tr("The file's %1 steps are all replayed").arg(main.steps().size()));
        else
            showError(tr("N steps: the model's context is full after %1 steps").arg(main.steps().size()));
        return;
    }
    if (main.steps().size() >= static_cast<std::size_t>(app::kMaxLoopSteps)) {
        showError(tr("N steps: the loop stops at %1 steps").arg(app::kMaxLoopSteps));
        return;
    }
    m_stepper.stepMain(main.steps().size() + 1, -1);
    m_followLatest = true;
    refresh();
}

void LoopPage::play()
{
    if (isRunning() || !ensureLoop([this] { play(); }))
        return;
    m_playStartSteps = m_stepper.main()->steps().size();
    if (m_playStartSteps >= static_cast<std::size_t>(m_steps->value()) || m_stepper.main()->atEnd()) {
        emit statusMessage(tr("Already %1 steps: Rewind, or raise N").arg(m_playStartSteps));
        return;
    }
    m_followLatest = true;
    m_playClock.start();
    m_playTimer->start(std::max(1, static_cast<int>(m_passMs->value())));
    emit statusMessage(tr("Playing at %1 ms per pass…").arg(m_passMs->value()));
    runStateChanged();
}

void LoopPage::playTick()
{
    // Token k appears at prefill + k passes, as in a real decode; a slow tick catches up, but
    // never holds the UI thread for more than one slice.
    const double elapsed = static_cast<double>(m_playClock.nsecsElapsed()) / 1e6;
    const double pass = m_passMs->value();
    auto n = static_cast<std::size_t>(m_steps->value());
    if (const auto available = m_stepper.main()->stepLimit())
        n = std::min(n, *available);
    if (m_stepper.main()->steps().size() >= n) {
        // The last steps were taken on the tick before: the whole page follows in an event of its own.
        m_playTimer->stop();
        emit statusMessage(
            tr("%1 tokens in %2 s (the latency model: %3 s)")
                .arg(n - m_playStartSteps)
                .arg(elapsed / 1000.0, 0, 'f', 2)
                .arg((m_prefillMs->value() + static_cast<double>(n - m_playStartSteps) * pass) / 1000.0, 0, 'f', 2));
        finishStepping();
        return;
    }
    std::size_t due = n;
    if (pass > 0.0)
        due = elapsed < m_prefillMs->value()
                  ? m_playStartSteps
                  : std::min(n, m_playStartSteps + static_cast<std::size_t>((elapsed - m_prefillMs->value()) / pass));
    m_stepper.stepMain(due, kSliceMs);
    followSteps();
}

void LoopPage::followSteps()
{
    if (m_stepper.main() && !m_stepper.main()->steps().empty() && !m_followTimer->isActive())
        m_followTimer->start();
}

void LoopPage::finishStepping()
{
    m_followTimer->stop();
    runStateChanged();
    refresh();
}

void LoopPage::stop()
{
    const bool stepping = isPlaying() || isBranching();
    m_playTimer->stop();
    if (m_loads->isRunning()) {
        m_loads->cancel();
        m_sourcePanel->hideProgress();
    }
    m_branchTimer->stop();
    if (isRunning())
        cancel();
    if (stepping)
        finishStepping();
    else
        runStateChanged();
}

void LoopPage::rewindOne()
{
    if (isRunning() || !m_stepper.main() || m_stepper.main()->steps().empty())
        return;
    m_playTimer->stop();
    m_branchTimer->stop();
    m_stepper.rewindOne();  // the runs lose their last steps: the text and table cut theirs
    m_followLatest = true;
    refresh();
    runStateChanged();
}

void LoopPage::branchHere()
{
    if (isRunning() || !m_stepper.main() || m_stepper.main()->steps().empty()) {
        showError(tr("Branch: step first, then branch at a step"));
        return;
    }
    const engine::GenerationLoop& main = *m_stepper.main();
    std::optional<std::int32_t> forced;
    const QString typed = m_branchToken->text();
    const bool reseed = m_branchMode->currentIndex() == Reseed || main.source().teacherForced() ||
                        (m_branchMode->currentIndex() == NoBranch && typed.trimmed().isEmpty());
    if (!reseed) {
        // A real model's tokens often start with a space (" the"): the text as typed first.
        app::LoopBranchSpec probe;
        probe.token = typed;
        forced = app::branchTokenId(probe, &main.source());
        probe.token = typed.trimmed();
        if (!forced)
            forced = app::branchTokenId(probe, &main.source());
        if (!forced) {
            showError(main.hasModel() ? tr("Token / seed: '%1' is not a token of the built-in model").arg(probe.token)
                                      : tr("Token / seed: '%1' is not a token of the model (its tokens are their text, "
                                           "spaces included)")
                                            .arg(probe.token));
            return;
        }
    }
    branchFrom(static_cast<std::size_t>(m_shownStep->value()), forced);
}

void LoopPage::branchFrom(std::size_t at, std::optional<std::int32_t> forced)
{
    if (isRunning() || !m_stepper.main() || at >= m_stepper.main()->steps().size()) {
        showError(tr("Branch: step first, then branch at a step"));
        return;
    }
    showError(QString());
    if (forced) {
        // The field names the forced token as a file writes it, so Save keeps this branch.
        const std::string& name = m_stepper.main()->vocabulary()[static_cast<std::size_t>(*forced)];
        const QSignalBlocker block(m_branchToken);
        m_branchToken->setText(name == "\n" ? QStringLiteral("\\n") : QString::fromStdString(name));
    }
    {
        const QSignalBlocker block(m_shownStep);
        m_shownStep->setValue(static_cast<int>(at));
    }
    m_followLatest = at + 1 >= m_stepper.main()->steps().size();
    std::unique_ptr<engine::Rng> rng;
    if (!forced)
        rng = engine::makeRng(m_rng->currentText().toStdString(), static_cast<std::uint64_t>(m_branchSeed->value()))
                  .value();
    m_stepper.branch(at, forced, std::move(rng));
    // The file says the same branch, so Save and Run N repeat it.
    const QSignalBlocker block(m_branchMode);
    m_branchMode->setCurrentIndex(forced ? ForceToken : Reseed);
    m_branchAt->setValue(static_cast<int>(at));
    if (const auto spec = specFromControls())
        m_stepper.follow(spec.value());
    // A short branch is done at once; a long one goes on in slices.
    if (!m_stepper.stepBranch(kSliceMs)) {
        m_branchTimer->start();
        followSteps();
        runStateChanged();
    } else {
        finishStepping();
    }
}

void LoopPage::branchSlice()
{
    if (m_stepper.stepBranch(kSliceMs)) {
        m_branchTimer->stop();
        finishStepping();
        return;
    }
    followSteps();
}

void LoopPage::sendTo(const QString& target)
{
    if (!m_stepper.main() || m_stepper.main()->steps().empty()) {
        showError(tr("Step first: the distribution sent is the one a step drew from"));
        return;
    }
    const engine::GenerationLoop& main = *m_stepper.main();
    const auto at = static_cast<std::size_t>(m_shownStep->value());
    HandOff handOff(m_stepper.distributionAt(at));
    if (target == app::explorerKind().id()) {
        // The Explorer shows the step as the run cut it: the run's chain after the run's tokens.
        const auto chain = engine::explorerChainOf(main.chain(), m_stepper.contextAt(at),
                                                   static_cast<std::size_t>(handOff.distribution.logits.size()));
        if (!chain)
            handOff.note = tr("The Explorer keeps its own chain: %1").arg(QString::fromStdString(chain.error()));
        else
            handOff.chain = chain.value();
        if (const double mu = main.steps()[at].mu; handOff.chain && !std::isnan(mu))
            handOff.note = tr("Mirostat starts afresh in the Explorer (μ = 2τ); the run's μ before step %1 was %2")
                               .arg(at)
                               .arg(mu, 0, 'g', 4);
    }
    emit distributionOffered(target, handOff);
}

void LoopPage::loadReplay(std::function<void()> then)
{
    const auto spec = specFromControls();
    if (!spec || !spec->replay) {
        showSourceError(spec ? tr("Source: choose the imported file first") : QString::fromStdString(spec.error()));
        return;
    }
    showSourceError(QString());
    m_sourcePanel->showOpening();
    const QJsonObject key = replayKeyOf(app::toJson(spec.value()), baseDir());
    emit statusMessage(tr("Opening %1…").arg(spec->replay->path));
    m_loads->start(
        [replay = *spec->replay, base = baseDir(), key](const app::WorkControl& control) {
            LoadedReplay loaded;
            loaded.key = key;
            auto opened = app::ImportedLogitsSource::open(replay, base, control);
            if (opened)
                loaded.source = std::move(opened).value();
            else
                loaded.error = QString::fromStdString(opened.error());
            return loaded;
        },
        [this, then = std::move(then)](LoadedReplay& loaded) {
            m_sourcePanel->hideProgress();
            if (!loaded.source) {
                showSourceError(loaded.error);
                return;
            }
            m_imported = loaded.source;
            m_importedKey = loaded.key;
            emit statusMessage(tr("%1: %2 steps of %3 tokens%4")
                                   .arg(m_imported->path())
                                   .arg(*m_imported->stepCount())
                                   .arg(m_imported->vocabSize())
                                   .arg(m_imported->sequencesArray().isEmpty()
                                            ? tr(", no sequences: the argmax stands in for the model's tokens")
                                            : tr(", the model's tokens from '%1'").arg(m_imported->sequencesArray())));
            if (then)
                then();
        });
}

void LoopPage::loadModel(std::function<void()> then)
{
    const auto spec = specFromControls();
    if (!spec || spec->modelFile.isEmpty()) {
        showSourceError(spec ? tr("Source: choose the GGUF model first") : QString::fromStdString(spec.error()));
        return;
    }
    showSourceError(QString());
    m_sourcePanel->showOpening();
    const QJsonObject key = modelKeyOf(app::toJson(spec.value()), baseDir());
    emit statusMessage(tr("Opening %1 and reading the prompt…").arg(spec->modelFile));
    m_loads->start(
        [spec = spec.value(), base = baseDir(), key](const app::WorkControl& control) {
            LoadedReplay loaded;
            loaded.key = key;
            // Progress in thousandths: reading the file to 900, the prompt's pass the rest.
            constexpr std::size_t kRead = 900;
            if (control.started)
                control.started(1000);
            const auto reading = [&control](qint64 done, qint64 total) {
                if (control.progress && total > 0)
                    control.progress(static_cast<std::size_t>(kRead * std::min(done, total) / total));
                return !(control.isCancelled && control.isCancelled());
            };
            auto source = app::ggufLoopSource(spec, base, /*roomToStepOn=*/true, 0, reading);
            if (!source) {
                loaded.error = QString::fromStdString(source.error());
                return loaded;
            }
            if (control.progress)
                control.progress(kRead);
            // The prompt's pass here, not in the first Step on the UI thread: it reads every
            // weight once (the first touch of a mapped file's pages) and fills the cache.
            auto loop = app::makeLoop(spec, source.value());
            if (loop && !loop.value().prompt().empty()) {
                std::vector<double> logits(source.value()->vocabSize());
                source.value()->logits(0, loop.value().prompt(), logits.data());
                if (const auto fault = source.value()->fault()) {
                    loaded.error = QStringLiteral("model-file: ") + QString::fromStdString(*fault);
                    return loaded;
                }
                loaded.stepRoom = loop.value().stepLimit().value_or(0);
            }
            if (control.progress)
                control.progress(950);
            loaded.model = std::move(source).value();
            app::ggufFileProvenance(spec.modelFile, base);  // hashed here, not at the first export
            if (control.progress)
                control.progress(1000);
            return loaded;
        },
        [this, then = std::move(then)](LoadedReplay& loaded) {
            m_sourcePanel->hideProgress();
            if (!loaded.model) {
                showSourceError(loaded.error);
                m_sourcePanel->showModelInfo(QString());
                return;
            }
            m_modelSource = loaded.model;
            m_modelKey = loaded.key;
            const auto* gguf = dynamic_cast<const engine::transformer::GgufModelSource*>(m_modelSource.get());
            m_sourcePanel->showModelInfo(
                tr("%1; room for %L2 tokens").arg(app::describeGgufModel(*gguf->model())).arg(gguf->positions()));
            emit statusMessage(tr("%1 is open").arg(QString::fromStdString(gguf->model()->what())));
            if (loaded.stepRoom > 0 && static_cast<std::size_t>(m_steps->value()) > loaded.stepRoom) {
                m_steps->setValue(static_cast<int>(loaded.stepRoom));
                emit statusMessage(tr("N steps lowered to %1: the model's context holds no more after the prompt")
                                       .arg(loaded.stepRoom));
            }
            if (then)
                then();
        });
}

void LoopPage::showSourceError(const QString& message)
{
    m_sourcePanel->showError(message);
    showError(message);
}

void LoopPage::showSourceRows()
{
    m_prompt->setEnabled(m_sourcePanel->choice() != LoopSourcePanel::ImportedFile);
    m_prompt->setToolTip(m_sourcePanel->promptToolTip());
}

void LoopPage::openNearTie()
{
    if (!m_stepper.main() || m_stepper.main()->steps().empty())
        return;
    const auto& steps = m_stepper.main()->steps();
    auto at = static_cast<std::size_t>(m_shownStep->value());
    if (at >= steps.size() || !engine::isGreedyNearTie(steps[at])) {
        const auto it =
            std::find_if(steps.begin(), steps.end(), [](const auto& s) { return engine::isGreedyNearTie(s); });
        if (it == steps.end()) {
            emit statusMessage(tr("No greedy near tie in this run"));
            return;
        }
        at = static_cast<std::size_t>(it - steps.begin());
        m_shownStep->setValue(static_cast<int>(at));
    }
    emit statusMessage(tr("Step %1: a logit gap of %2 between the two most likely tokens")
                           .arg(at)
                           .arg(steps[at].topLogitGap, 0, 'g', 3));
    emit distributionOffered(app::batchInvarianceKind().id(), m_stepper.distributionAt(at));
}

void LoopPage::showReplayAndTies()
{
    const auto& main = m_stepper.main();
    const bool replay = main && main->source().teacherForced();
    m_replayInfo->setVisible(replay);
    if (replay)
        m_replayInfo->setText(
            tr("<b>Teacher-forced replay</b>: the history is the model's own tokens, so each step's "
               "distribution is the file's row whatever the sampler picks (the stateful stages see the "
               "model's tokens too). %1.")
                .arg(app::replaySummary(main->steps()).toHtmlEscaped()));
    QStringList ties;
    std::size_t count = 0;
    if (main)
        for (const auto& s : main->steps())
            if (engine::isGreedyNearTie(s) && ++count <= 12)
                ties << QString::number(s.index);
    m_nearTies->setVisible(count > 0);
    m_toBatchInvariance->setVisible(count > 0);
    if (count > 0)
        m_nearTies->setText(tr("Greedy near ties (top-2 logit gap ≤ %1): %2 steps (%3%4). A server's batch-dependent "
                               "summation can flip these.")
                                .arg(engine::kNearTieLogitGap)
                                .arg(count)
                                .arg(ties.join(QStringLiteral(", ")), count > 12 ? QStringLiteral(", …") : QString()));
}

QString LoopPage::promptText(const engine::GenerationLoop& loop) const
{
    if (loop.hasModel())
        return m_prompt->text();
    if (auto decoded = loop.source().decodeText(loop.prompt()))
        return QString::fromStdString(*decoded);
    std::vector<std::string> words;
    for (std::int32_t id : loop.prompt())
        words.push_back(loop.vocabulary()[static_cast<std::size_t>(id)]);
    return QString::fromStdString(engine::joinWordTokens(words));
}

void LoopPage::run()
{
    const auto spec = specFromControls();
    if (!spec) {
        showError(QString::fromStdString(spec.error()));
        return;
    }
    m_playTimer->stop();
    m_branchTimer->stop();
    // A replay's N is bounded by its file: open it first (with the progress bar), then run.
    if (spec->replay && (!m_imported || m_importedKey != replayKeyOf(app::toJson(spec.value()), baseDir()))) {
        loadReplay([this] { run(); });
        return;
    }
    const bool gguf = !spec->modelFile.isEmpty();
    if (gguf && (!m_modelSource || m_modelKey != modelKeyOf(app::toJson(spec.value()), baseDir()))) {
        loadModel([this] { run(); });
        return;
    }
    // The page steps on from the run's loops, so it needs copies it may change; they are made
    // on the worker (copying 4,096 steps' records and snapshots held the UI thread for tens of ms).
    struct Copies {
        std::optional<engine::GenerationLoop> main;
        std::optional<engine::GenerationLoop> branch;
    };
    auto copies = std::make_shared<Copies>();
    startRun<app::LoopOutcome>(
        *m_runs, tr("Running %1 steps…").arg(spec->steps),
        [spec = spec.value(), base = baseDir(),
         source = gguf ? m_modelSource
                  : spec->replay && m_importedKey == replayKeyOf(app::toJson(spec.value()), baseDir())
                      ? std::shared_ptr<const engine::StepLogitsSource>(m_imported)
                      : nullptr,
         copies](const app::WorkControl& control) {
            app::LoopOutcome outcome = app::runLoop(spec, base, control, source);
            if (outcome.mainLoop)
                copies->main.emplace(*outcome.mainLoop);
            if (outcome.branchLoop)
                copies->branch.emplace(*outcome.branchLoop);
            // Freed here too: the landing needs neither the originals nor the tracks (the page
            // has the copies), and freeing 4,096 steps' records on the UI thread takes ms.
            outcome.mainLoop.reset();
            outcome.branchLoop.reset();
            outcome.tracks.clear();
            return outcome;
        },
        [this, spec = spec.value(), copies](app::LoopOutcome& outcome) {
            if (spec.replay && outcome.source) {
                m_imported = std::dynamic_pointer_cast<const app::ImportedLogitsSource>(outcome.source);
                m_importedKey = replayKeyOf(app::toJson(spec), baseDir());
            }
            m_stepper.adopt(spec, std::move(copies->main), std::move(copies->branch));
            m_followLatest = true;
            refresh();
        });
}

void LoopPage::refresh(bool whole)
{
    const std::optional<engine::GenerationLoop>& main = m_stepper.main();
    const std::optional<engine::GenerationLoop>& branch = m_stepper.branchRun();
    const quint64 mainGeneration = m_stepper.mainGeneration();
    const quint64 branchGeneration = m_stepper.branchGeneration();
    // A model whose logits went bad gives flat rows from then on: say so and stop stepping.
    if (main)
        if (const auto fault = main->source().fault()) {
            m_playTimer->stop();
            m_branchTimer->stop();
            showSourceError(
                tr("Model file: %1; the steps since are not the model's").arg(QString::fromStdString(*fault)));
        }
    const std::size_t size = main ? main->steps().size() : 0;
    {
        const QSignalBlocker block(m_shownStep);
        m_shownStep->setRange(0, static_cast<int>(size > 0 ? size - 1 : 0));
        if (m_followLatest && size > 0)
            m_shownStep->setValue(static_cast<int>(size - 1));
        m_shownStep->setEnabled(size > 0);
    }
    const std::optional<engine::Divergence> divergence = m_stepper.divergence();
    std::optional<std::size_t> divergentStep;
    if (divergence)
        divergentStep = divergence->step;

    if (main)
        m_mainRunText.show(*main, mainGeneration, promptText(*main), divergentStep, false);
    else
        m_mainRunText.showMessage(
            QStringLiteral("<span style='color:#888'>%1</span>").arg(m_prompt->text().toHtmlEscaped()));
    if (size == 0) {
        m_stepChart->clear(tr("Press Step (F10) or Play (F8) to generate"));
        m_shownStepDrawn = {};
        m_stepInfo->clear();
    } else {
        const auto& step = main->steps()[static_cast<std::size_t>(m_shownStep->value())];
        // The shown step's chart and summary: when it is another step than the one drawn, and
        // while Play runs at most every kStepChartMs (the chart costs the UI thread ms a time).
        const ShownStep shown{mainGeneration, step.index, step.token, step.probability, step.forced};
        const bool due = whole || !m_stepRefresh.isValid() || m_stepRefresh.elapsed() >= kStepChartMs;
        if (due && shown != m_shownStepDrawn) {
            m_shownStepDrawn = shown;
            m_stepRefresh.start();
            m_stepChart->setStep(step, main->vocabulary());
            QString info = LoopStepChart::stepSummary(step);
            if (step.actual >= 0) {
                const auto& vocabulary = main->vocabulary();
                info += QStringLiteral("\n") +
                        tr("Model's token%1: '%2' (p model %3, rank %4, after the chain %5) — the pick %6")
                            .arg(step.actualKnown ? QString() : tr(" (unknown: the argmax)"))
                            .arg(shownLoopToken(vocabulary[static_cast<std::size_t>(step.actual)]))
                            .arg(step.actualModelProbability, 0, 'g', 4)
                            .arg(step.actualRank)
                            .arg(step.actualCut ? tr("cut") : QString::number(step.actualProbability, 'g', 4))
                            .arg(step.matches()
                                     ? tr("matches")
                                     : tr("differs: '%1'")
                                           .arg(shownLoopToken(vocabulary[static_cast<std::size_t>(step.token)])));
            }
            if (engine::isGreedyNearTie(step))
                info += QStringLiteral("\n") +
                        tr("Greedy near tie: the top two logits differ by %1").arg(step.topLogitGap, 0, 'g', 3);
            m_stepInfo->setText(info);
        }
    }
    m_strip->setRuns({main ? &*main : nullptr, mainGeneration}, {branch ? &*branch : nullptr, branchGeneration},
                     divergentStep);
    m_strip->setCurrentStep(size > 0 ? std::optional<std::size_t>(m_shownStep->value()) : std::nullopt);
    if (branch)
        m_branchRunText.show(*branch, branchGeneration, promptText(*branch), divergentStep, true);
    else
        m_branchRunText.showMessage(tr("<span style='color:#888'>No branch. Pick a step (Shown step), type a token "
                                       "or choose a seed, and press Branch here.</span>"));
    std::vector<LoopStepsChart::Track> chartTracks;
    if (main)
        chartTracks.push_back({tr("main"), &main->steps()});
    if (branch)
        chartTracks.push_back({tr("branch"), &branch->steps()});
    // The steps chart covers every step: while Play or a branch runs it follows at 2 Hz, so a
    // tick at 4,096 steps stays within the UI thread's budget (bench_loop_ui).
    if (whole || !m_wholeRefresh.isValid() || m_wholeRefresh.elapsed() >= kWholeRefreshMs) {
        m_stepsChart->setTracks(chartTracks, divergentStep);
        m_wholeRefresh.start();
    }
    // The table grows by the new steps' rows (and loses the rewound ones), so it follows every tick.
    m_model->sync({main ? &*main : nullptr, mainGeneration}, {branch ? &*branch : nullptr, branchGeneration});

    if (!branch) {
        m_divergence->setText(
            size ? tr("%1 steps: one forward pass each, each needing the token the one before chose.").arg(size)
                 : QString());
    } else if (!divergence) {
        m_divergence->setText(tr("The branch has chosen the same tokens so far."));
    } else {
        const auto& vocabulary = main->vocabulary();
        const auto a = main->steps()[divergence->step].token;
        const auto b = branch->steps()[divergence->step].token;
        m_divergence->setText(
            tr("First divergent step: %1. Main chose '%2' (model p %3), the branch '%4' (model p %5): a gap of %6.%7")
                .arg(divergence->step)
                .arg(shownLoopToken(vocabulary[static_cast<std::size_t>(a)]))
                .arg(divergence->probabilityA, 0, 'g', 4)
                .arg(shownLoopToken(vocabulary[static_cast<std::size_t>(b)]))
                .arg(divergence->probabilityB, 0, 'g', 4)
                .arg(divergence->probabilityA - divergence->probabilityB, 0, 'g', 4)
                .arg(branch->steps()[divergence->step].forced ? tr(" (forced)") : QString()));
    }
    showReplayAndTies();
    if (const QJsonObject json = controlsJson(); !json.isEmpty() && main)
        resultsShownFor(json);
    emit runShown();
}

void LoopPage::showLatency()
{
    const double n = m_steps->value();
    const double total = (m_prefillMs->value() + n * m_passMs->value()) / 1000.0;
    m_latency->setText(tr("<b>Latency model</b>: one forward pass per output token, and each pass needs the token the "
                          "one before chose, so they cannot overlap. Prefill %1 ms + %2 passes × %3 ms = <b>%4 s</b>. "
                          "(The lesson: 400 × 25 ms ≈ 10 s.) Play steps at this speed.")
                           .arg(m_prefillMs->value())
                           .arg(m_steps->value())
                           .arg(m_passMs->value())
                           .arg(total, 0, 'f', 2));
}

QString LoopPage::id() const { return app::loopKind().id(); }

}  // namespace logitlab::ui
