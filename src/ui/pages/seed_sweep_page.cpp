#include "ui/pages/seed_sweep_page.h"

#include "app/io/gguf_model_file.h"
#include "app/io/save_text.h"
#include "app/kinds/seed_sweep_spec.h"
#include "app/text/counted.h"
#include "charts/seed_sweep_charts.h"
#include "charts/sequence_sweep_charts.h"
#include "charts/step_sweep_charts.h"
#include "charts/token_display.h"
#include "engine/rng/rng_factory.h"
#include "engine/sampler/lesson_examples.h"
#include "engine/sampler/semantics.h"
#include "ui/models/result_table_model.h"
#include "ui/pages/control_scroll.h"

#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QShowEvent>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QThread>
#include <QVBoxLayout>

namespace logitlab::ui {

namespace {

app::DistributionSpec logitsSpec(const engine::Distribution& d)
{
    app::DistributionSpec spec;
    spec.kind = app::DistributionSpec::Kind::Logits;
    for (Eigen::Index i = 0; i < d.logits.size(); ++i) {
        spec.values << d.logits[i];
        if (!d.tokens.empty())
            spec.tokens << QString::fromStdString(d.tokens[static_cast<std::size_t>(i)]);
    }
    return spec;
}

QTableView* sortedTable(QAbstractItemModel* model, int sortRole, QWidget* parent)
{
    auto* proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(model);
    proxy->setSortRole(sortRole);
    auto* view = new QTableView(parent);
    view->setModel(proxy);
    view->setSortingEnabled(true);
    view->sortByColumn(-1, Qt::AscendingOrder);  // the engine's order until a header is clicked
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->verticalHeader()->hide();
    return view;
}

QChartView* chartView(QChart* chart)
{
    auto* view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(400, 300);  // with the controls, within a 1024-pixel-wide window
    return view;
}

}  // namespace

SeedSweepPage::SeedSweepPage(QWidget* parent)
    : ExperimentPage(parent), m_runs(new app::RunController<RunOutcome>(app::RunControllerBase::Mode::Supersede, this)),
      m_replays(new app::RunController<QString>(app::RunControllerBase::Mode::Supersede, this)),
      m_charts(new SeedSweepCharts(this)), m_seedModel(new ResultTableModel(this)),
      m_tokenModel(new ResultTableModel(this)), m_mode(new QComboBox),
      m_prompt(new QLineEdit(QStringLiteral("The sampler"))), m_replyModelFile(new QLineEdit), m_steps(new QSpinBox),
      m_form(new QFormLayout), m_replayBox(new QGroupBox(tr("Replay a seed"))), m_source(new QComboBox),
      m_semantics(new QComboBox), m_chain(new QLineEdit(QStringLiteral("temperature=1,top-p=0.9"))),
      m_rng(new QComboBox), m_firstSeed(new QSpinBox), m_seedCount(new QSpinBox), m_draws(new QSpinBox),
      m_everyStep(new QCheckBox(tr("Every step of the file in turn"))),
      m_compare(new QCheckBox(tr("Compare two seeds"))), m_compareA(new QSpinBox), m_compareB(new QSpinBox),
      m_threads(new QSpinBox), m_replaySeed(new QSpinBox), m_replay(new QPushButton(tr("Re&play"))),
      m_replayResult(new QLabel), m_verdict(new QLabel), m_plainWords(new QLabel), m_tabs(new QTabWidget),
      m_sequenceCharts(new SequenceSweepCharts(this)), m_replyModel(new ResultTableModel(this)),
      m_replySeedModel(new ResultTableModel(this)), m_firstDifferenceModel(new ResultTableModel(this)),
      m_replySummary(new QLabel), m_replyTabs(new QTabWidget), m_stepCharts(new StepSweepCharts(this)),
      m_stepModel(new ResultTableModel(this)), m_stepTabs(new QTabWidget), m_results(new QStackedWidget),
      m_drawStatistics(new QWidget)
{
    setExperimentRuns(m_runs);
    addRuns(m_replays);
    m_mode->addItems({tr("Draws from one distribution"), tr("Whole replies of the built-in model")});
    m_mode->setToolTip(tr("What a seed changes: many draws from one fixed next-token distribution (is the sampler "
                          "right?), or a whole reply of the built-in model to the prompt (how many different "
                          "answers, and where do they part?)."));
    m_prompt->setToolTip(tr("What every seed's reply continues (at least one word)."));
    m_replyModelFile->setPlaceholderText(tr("empty: the built-in model; or a .gguf file"));
    m_replyModelFile->setToolTip(tr("A GGUF model (llama, qwen2, gpt2) run on the CPU writes the replies, each seed on "
                                    "a cache of its own; empty: the built-in model."));
    m_steps->setRange(1, static_cast<int>(app::kMaxLoopSteps));
    m_steps->setValue(12);
    m_steps->setToolTip(tr("Tokens per reply: one pass of the model each. Seeds x tokens is at most %L1.")
                            .arg(app::kMaxSequenceSweepPasses));
    m_everyStep->setToolTip(
        tr("For a logits file of several steps (a model's reply): sweep each step's distribution "
           "in turn, one row per step. The goodness of fit is shown only at steps where it is valid."));
    m_replySummary->setWordWrap(true);
    m_replySummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_source->setObjectName(QStringLiteral("distributionSource"));
    m_source->addItems({tr("Lesson exercise: => { ( async //"), tr("Lesson example: users … banana"),
                        tr("Explorer's logits"), tr("Logits file..."), tr("As in the experiment file")});
    m_source->setToolTip(tr("The next-token distribution every seed draws from."));
    for (auto s : engine::allSemantics())
        m_semantics->addItem(QString::fromStdString(engine::semanticsName(s)));
    m_semantics->setToolTip(tr("Whose rules the chain follows: the lesson's, llama.cpp's, Hugging Face's or vLLM's."));
    m_chain->setToolTip(tr("The sampler chain as text, e.g. temperature=1,top-p=0.9 or top-k=40,min-p=0.05."));
    for (const auto& n : engine::rngNames())
        m_rng->addItem(QString::fromStdString(n));
    m_rng->setToolTip(tr("The random generator each seed starts (mulberry32 is the lesson's)."));
    m_firstSeed->setRange(0, std::numeric_limits<int>::max());
    m_firstSeed->setValue(1);
    m_firstSeed->setToolTip(tr("Seeds run from this one upwards."));
    m_seedCount->setRange(1, static_cast<int>(engine::SeedSweepExperiment::kMaxSeeds));
    m_seedCount->setValue(200);
    m_seedCount->setToolTip(tr("How many seeds to sweep."));
    m_draws->setRange(1, static_cast<int>(engine::SeedSweepExperiment::kMaxDrawsPerSeed));
    m_draws->setValue(10000);
    m_draws->setToolTip(tr("Tokens drawn with each seed."));
    for (QSpinBox* box : {m_compareA, m_compareB, m_replaySeed})
        box->setRange(0, std::numeric_limits<int>::max());
    m_compareA->setValue(1);
    m_compareB->setValue(2);
    m_compare->setToolTip(tr("Find the first draw where the two seeds' sequences differ."));
    m_threads->setRange(1, 256);
    m_threads->setValue(QThread::idealThreadCount());
    m_threads->setToolTip(tr("Worker threads. The results are the same for any number."));
    m_replaySeed->setToolTip(tr("A swept seed to draw again and compare bit for bit."));
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_replayResult->setWordWrap(true);
    m_plainWords->setWordWrap(true);
    m_plainWords->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_plainWords->setToolTip(tr("What the statistics below say, in words. The verdict is the KS test of the per-seed "
                                "chi-square p-values: a correct sampler gives p-values spread evenly over 0..1."));
    // Each statistic with its meaning one hover away (on its name and on its value).
    auto* statistics = new QFormLayout;
    const auto addStatistic = [&](const QString& key, const QString& name, const QString& meaning) {
        auto* label = new QLabel(name);
        auto* value = new QLabel(QStringLiteral("–"));
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        label->setToolTip(meaning);
        value->setToolTip(meaning);
        statistics->addRow(label, value);
        m_statistics.insert(key, value);
    };
    addStatistic(QStringLiteral("ks"), tr("KS of the p-values"),
                 tr("Kolmogorov-Smirnov test of the per-seed chi-square p-values against a uniform spread. D is the "
                    "largest gap between their spread and an even one; p is the chance of a gap this large if the "
                    "sampler is right. p below 0.01: the counts vary by seed more than chance predicts."));
    addStatistic(QStringLiteral("g-ks"), tr("KS of the G-test p-values"),
                 tr("The same check with the G-test (likelihood ratio) in place of chi-square: a second opinion "
                    "that weighs rare tokens differently."));
    addStatistic(QStringLiteral("pooled"), tr("Pooled chi-square"),
                 tr("All seeds' draws added up and compared with the claimed probabilities in one test: with many "
                    "draws it sees even a small bias. Not valid when the tokens expect fewer than 5 draws each."));
    addStatistic(QStringLiteral("bins"), tr("Bins after pooling"),
                 tr("Chi-square needs about 5 expected draws per bin: tokens expecting fewer are pooled into one "
                    "bin before each seed's test. The number of bins each per-seed test uses."));

    QFormLayout* form = m_form;
    form->addRow(tr("&Mode"), m_mode);
    form->addRow(tr("&Distribution"), m_source);
    form->addRow(tr("M&odel"), m_replyModelFile);
    form->addRow(tr("&Prompt"), m_prompt);
    form->addRow(tr("Reply &length"), m_steps);
    form->addRow(tr("&Semantics"), m_semantics);
    form->addRow(tr("C&hain"), m_chain);
    form->addRow(tr("R&NG"), m_rng);
    form->addRow(tr("&First seed"), m_firstSeed);
    form->addRow(tr("S&eeds"), m_seedCount);
    form->addRow(tr("D&raws per seed"), m_draws);
    form->addRow(QString(), m_everyStep);
    auto* compareRow = new QHBoxLayout;
    compareRow->addWidget(m_compareA);
    compareRow->addWidget(m_compareB);
    form->addRow(m_compare, compareRow);
    form->addRow(tr("&Threads"), m_threads);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(runButton());
    buttons->addWidget(cancelButton());
    auto* replayRow = new QHBoxLayout;
    replayRow->addWidget(m_replaySeed, 1);
    replayRow->addWidget(m_replay);
    auto* files = new QHBoxLayout;
    files->addWidget(openButton());
    files->addWidget(saveButton());

    auto* controls = new QGroupBox(tr("Seed sweep"));
    auto* controlsLayout = new QVBoxLayout(controls);
    controlsLayout->addLayout(files);
    controlsLayout->addLayout(form);
    controlsLayout->addLayout(buttons);
    controlsLayout->addWidget(errorLabel());
    auto* drawStatistics = new QVBoxLayout(m_drawStatistics);
    drawStatistics->setContentsMargins(0, 0, 0, 0);
    drawStatistics->addWidget(m_plainWords);
    drawStatistics->addLayout(statistics);
    drawStatistics->addWidget(m_verdict);
    controlsLayout->addWidget(m_drawStatistics);
    controlsLayout->addWidget(m_replySummary);
    QGroupBox* replayBox = m_replayBox;
    auto* replayLayout = new QVBoxLayout(replayBox);
    replayLayout->addLayout(replayRow);
    replayLayout->addWidget(m_replayResult);
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(controls);
    leftLayout->addWidget(replayBox);
    leftLayout->addStretch();

    m_tabs->addTab(chartView(m_charts->pValues()), tr("p-values"));
    m_tabs->addTab(chartView(m_charts->spread()), tr("Spread by seed"));
    m_tabs->addTab(chartView(m_charts->counts()), tr("Counts"));
    m_tabs->addTab(sortedTable(m_seedModel, ResultTableModel::SortRole, this), tr("Per seed"));
    m_tabs->addTab(sortedTable(m_tokenModel, ResultTableModel::SortRole, this), tr("Per token"));

    m_replyTabs->addTab(chartView(m_sequenceCharts->distinct()), tr("Distinct replies"));
    m_replyTabs->addTab(chartView(m_sequenceCharts->firstDifference()), tr("First differences"));
    m_replyTabs->addTab(sortedTable(m_replyModel, ResultTableModel::SortRole, this), tr("Replies"));
    m_replyTabs->addTab(sortedTable(m_replySeedModel, ResultTableModel::SortRole, this), tr("Per seed"));
    m_replyTabs->addTab(sortedTable(m_firstDifferenceModel, ResultTableModel::SortRole, this),
                        tr("First differences (table)"));
    m_stepTabs->addTab(chartView(m_stepCharts->pValues()), tr("Fit per step"));
    m_stepTabs->addTab(chartView(m_stepCharts->tokens()), tr("Tokens per step"));
    m_stepTabs->addTab(sortedTable(m_stepModel, ResultTableModel::SortRole, this), tr("Per step"));
    m_results->addWidget(m_tabs);
    m_results->addWidget(m_replyTabs);
    m_results->addWidget(m_stepTabs);

    auto* resultsPane = new QWidget;
    auto* resultsLayout = new QVBoxLayout(resultsPane);
    resultsLayout->setContentsMargins(0, 0, 0, 0);
    resultsLayout->addWidget(staleLabel());
    resultsLayout->addWidget(m_results, 1);
    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(controlScroll(left));
    splitter->addWidget(resultsPane);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({360, 840});
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter);

    connect(m_replay, &QPushButton::clicked, this, [this] { replay(m_replaySeed->value()); });
    connect(m_compare, &QCheckBox::toggled, this, &SeedSweepPage::runStateChanged);
    connect(m_source, &QComboBox::activated, this, [this](int index) {
        if (index == LogitsFile) {
            const QString path = QFileDialog::getOpenFileName(this, tr("Open logits"), QString(),
                                                              tr("Logits (*.csv *.txt);;All files (*)"));
            if (!path.isEmpty())
                m_filePath = path;
        }
        runStateChanged();
    });
    connect(m_mode, &QComboBox::currentIndexChanged, this, &SeedSweepPage::showMode);
    connect(m_source, &QComboBox::currentIndexChanged, this, &SeedSweepPage::showMode);
    connect(m_everyStep, &QCheckBox::toggled, this, &SeedSweepPage::showMode);
    watchControls(controls, {m_threads});
    showMode();
    runStateChanged();
    markSaved();  // the starting point is not an unsaved change
}

QJsonObject SeedSweepPage::controlsJson() const
{
    const auto spec = specFromControls();
    return spec.ok() ? app::toJson(spec.value()) : QJsonObject();
}

QString SeedSweepPage::title() const { return tr("Seed sweep"); }

bool SeedSweepPage::repliesMode() const { return m_mode->currentIndex() == RepliesMode; }

SeedSweepPage::View SeedSweepPage::view() const
{
    if (repliesMode())
        return RepliesView;
    return m_everyStep->isEnabled() && m_everyStep->isChecked() ? StepsView : DrawsView;
}

void SeedSweepPage::showMode()
{
    const bool replies = repliesMode();
    // Every step needs a file: a chosen logits file, or an opened experiment's file distribution.
    const int source = m_source->currentIndex();
    m_everyStep->setEnabled(source == LogitsFile ||
                            (source == AsInExperimentFile && m_loaded.kind == app::DistributionSpec::Kind::File));
    for (QWidget* w : {static_cast<QWidget*>(m_source), static_cast<QWidget*>(m_draws),
                       static_cast<QWidget*>(m_compare), static_cast<QWidget*>(m_everyStep)})
        m_form->setRowVisible(w, !replies);
    for (QWidget* w :
         {static_cast<QWidget*>(m_prompt), static_cast<QWidget*>(m_replyModelFile), static_cast<QWidget*>(m_steps)})
        m_form->setRowVisible(w, replies);
    const View shown = view();
    m_replayBox->setVisible(shown == DrawsView);
    m_drawStatistics->setVisible(shown == DrawsView);
    m_replySummary->setVisible(shown != DrawsView);
    m_replySummary->setText(shown == StepsView ? m_stepsText : m_repliesText);
    m_results->setCurrentIndex(shown);
}

QChart* SeedSweepPage::chart() const
{
    if (view() == StepsView)
        return m_stepTabs->currentIndex() == StepTokensTab ? m_stepCharts->tokens() : m_stepCharts->pValues();
    if (repliesMode())
        return m_replyTabs->currentIndex() == FirstDifferenceTab ? m_sequenceCharts->firstDifference()
                                                                 : m_sequenceCharts->distinct();
    switch (m_tabs->currentIndex()) {
    case SpreadTab:
        return m_charts->spread();
    case CountsTab:
        return m_charts->counts();
    default:
        return m_charts->pValues();
    }
}

QAbstractItemModel* SeedSweepPage::resultsModel() const
{
    if (view() == StepsView)
        return m_stepModel;
    if (repliesMode()) {
        switch (m_replyTabs->currentIndex()) {
        case ReplySeedsTab:
            return m_replySeedModel;
        case FirstDifferenceTab:
        case FirstDifferenceTableTab:
            return m_firstDifferenceModel;
        default:
            return m_replyModel;
        }
    }
    if (m_tabs->currentIndex() == SeedsTab)
        return m_seedModel;
    return m_tokenModel;
}

std::optional<app::ResultTable> SeedSweepPage::resultTable() const
{
    return static_cast<const ResultTableModel*>(resultsModel())->table();
}

app::Provenance SeedSweepPage::provenance() const
{
    if (view() == StepsView) {
        if (!m_hasSteps)
            return app::Provenance(QStringLiteral("seed-sweep (not run yet)"));
        return app::stepSweepResult(m_stepSpec, baseDir(), m_stepOutcome, m_threads->value()).provenance;
    }
    if (repliesMode()) {
        if (!m_hasReplies)
            return app::Provenance(QStringLiteral("seed-sweep (not run yet)"));
        return app::sequenceSweepResultHeader(app::sequenceSweepProvenance(m_sequenceSpec, baseDir()),
                                              m_sequenceOutcome);
    }
    if (!m_hasResults)
        return app::Provenance(QStringLiteral("seed-sweep (not run yet)"));
    return app::seedSweepResultHeader(app::seedSweepProvenance(m_resultSpec, baseDir()), m_outcome);
}

engine::Result<app::SeedSweepSpec> SeedSweepPage::specFromControls() const
{
    app::SeedSweepSpec spec;
    if (repliesMode()) {
        spec.source = app::SeedSweepSpec::Source::Sequence;
        spec.prompt = m_prompt->text();
        spec.modelFile = m_replyModelFile->text().trimmed();
        spec.steps = m_steps->value();
    } else {
        switch (m_source->currentIndex()) {
        case LessonExercise:
            spec.distribution = logitsSpec(engine::lessonExercise());
            break;
        case LessonExample:
            spec.distribution = logitsSpec(engine::lessonExample());
            break;
        case ExplorerLogits:
            if (m_explorerLogits.logits.size() == 0)
                return engine::Error{tr("Distribution: no logits from the Explorer yet").toStdString()};
            spec.distribution = logitsSpec(m_explorerLogits);
            break;
        case LogitsFile:
            if (m_filePath.isEmpty())
                return engine::Error{tr("Distribution: choose a logits file").toStdString()};
            spec.distribution.kind = app::DistributionSpec::Kind::File;
            spec.distribution.path = m_filePath;
            break;
        case AsInExperimentFile:
            spec.distribution = m_loaded;
            break;
        }
    }
    spec.semantics = m_semantics->currentText();
    spec.chain = m_chain->text().trimmed();
    spec.rng = m_rng->currentText();
    spec.seedRange = true;
    spec.firstSeed = m_firstSeed->value();
    spec.seedCount = m_seedCount->value();
    spec.draws = m_draws->value();
    if (!spec.isSequence() && spec.distribution.kind == app::DistributionSpec::Kind::File) {
        if (view() == StepsView) {
            if (!spec.distribution.steps)
                spec.distribution.steps = app::StepRange{};  // all steps
            spec.distribution.row.reset();
        } else {
            spec.distribution.steps.reset();
        }
    }
    if (m_compare->isChecked() && !spec.isSequence())
        spec.compare = std::make_pair<qint64, qint64>(m_compareA->value(), m_compareB->value());
    // The file reader is the one place that validates: run the controls through it. The chain
    // is checked too, so its mistakes show at once instead of after a run starts.
    auto checked = app::parseSeedSweep(app::toJson(spec), tr("controls"));
    if (checked) {
        if (auto chain = app::sweepChain(checked.value()); !chain)
            return engine::Error{tr("controls: ").toStdString() + chain.error()};
    }
    return checked;
}

void SeedSweepPage::setSpec(const app::SeedSweepSpec& spec, const QString& baseDir)
{
    setBaseDir(baseDir);
    m_mode->setCurrentIndex(spec.isSequence() ? RepliesMode : DrawsMode);
    if (spec.isSequence()) {
        m_prompt->setText(spec.prompt);
        m_replyModelFile->setText(spec.modelFile);
        m_steps->setValue(static_cast<int>(spec.steps));
    } else {
        m_loaded = spec.distribution;
        m_source->setCurrentIndex(AsInExperimentFile);
        m_everyStep->setChecked(spec.distribution.steps.has_value());
    }
    m_semantics->setCurrentText(spec.semantics);
    m_chain->setText(spec.chain);
    m_rng->setCurrentText(spec.rng);
    const auto seeds = spec.seeds();
    m_firstSeed->setValue(static_cast<int>(std::min<std::uint64_t>(seeds.front(), std::numeric_limits<int>::max())));
    m_seedCount->setValue(static_cast<int>(seeds.size()));
    if (!spec.isSequence())
        m_draws->setValue(static_cast<int>(spec.draws));
    m_compare->setChecked(spec.compare.has_value());
    if (spec.compare) {
        m_compareA->setValue(static_cast<int>(spec.compare->first));
        m_compareB->setValue(static_cast<int>(spec.compare->second));
    }
    runStateChanged();
}

QString SeedSweepPage::readExperimentFile(const QString& path)
{
    const auto spec = app::readSeedSweepFile(path);
    if (!spec)
        return QString::fromStdString(spec.error());
    if (!spec->seedRange)
        emit statusMessage(tr("The file lists its seeds; the page sweeps %1 from %2")
                               .arg(app::counted(spec->seedList.size(), "seed", "seeds"))
                               .arg(spec->seeds().front()));
    setSpec(spec.value(), QFileInfo(path).absolutePath());
    return {};
}

QString SeedSweepPage::writeExperimentFile(const QString& path)
{
    const auto spec = specFromControls();
    if (!spec)
        return QString::fromStdString(spec.error());
    app::SeedSweepSpec named = spec.value();
    named.name = QFileInfo(path).completeBaseName().isEmpty() ? named.name : QFileInfo(path).completeBaseName();
    if (!app::parseSeedSweep(app::toJson(named), path))
        named.name = spec->name;  // a file name that is not a valid experiment name keeps the default
    return app::saveBytes(path, QJsonDocument(app::toJson(named)).toJson(QJsonDocument::Indented));
}

bool SeedSweepPage::acceptDistribution(const HandOff& handOff)
{
    const engine::Distribution& distribution = handOff.distribution;
    m_explorerLogits = distribution;
    m_mode->setCurrentIndex(DrawsMode);
    m_source->setCurrentIndex(ExplorerLogits);
    runStateChanged();
    return true;
}

QString SeedSweepPage::openModel(const QString& path)
{
    const QFileInfo info(path);
    if (!info.isFile())
        return tr("%1: no such file").arg(path);
    m_mode->setCurrentIndex(RepliesMode);
    m_replyModelFile->setText(info.absoluteFilePath());
    run();
    return {};
}

void SeedSweepPage::run()
{
    const auto spec = specFromControls();
    if (!spec) {
        showError(QString::fromStdString(spec.error()));
        return;
    }
    if (spec->distribution.steps && !spec->isSequence()) {
        startRun<RunOutcome>(
            *m_runs,
            tr("Sweeping every step: %1 x %2 each...")
                .arg(app::counted(qint64(spec->seeds().size()), "seed", "seeds"),
                     app::counted(spec->draws, "draw", "draws")),
            [spec = spec.value(), dir = baseDir(), source = tr("controls"),
             threads = m_threads->value()](const app::WorkControl& control) {
                RunOutcome run;
                run.steps = app::runStepSweep(spec, dir, source, threads, control);
                run.status = run.steps->status;
                run.draws = run.steps->draws;
                run.seconds = run.steps->seconds;
                return run;
            },
            [this, spec = spec.value()](RunOutcome& run) { showSteps(spec, *run.steps); });
        return;
    }
    if (spec->isSequence()) {
        startRun<RunOutcome>(
            *m_runs,
            tr("Generating %1 of %2...")
                .arg(app::counted(qint64(spec->seeds().size()), "reply", "replies"),
                     app::counted(spec->steps, "token", "tokens")),
            [spec = spec.value(), base = baseDir(), source = tr("controls"),
             threads = m_threads->value()](const app::WorkControl& control) {
                RunOutcome run;
                run.replies = app::runSequenceSweep(spec, base, source, threads, control);
                // The model's SHA-256 for the exports' provenance, hashed here rather than on the
                // UI thread at the first export (seconds for a large model; cached per file version).
                if (!spec.modelFile.isEmpty() && run.replies->status.finished())
                    app::ggufFileProvenance(spec.modelFile, base);
                run.status = run.replies->status;
                run.draws = run.replies->draws;
                run.seconds = run.replies->seconds;
                return run;
            },
            [this, spec = spec.value()](RunOutcome& run) { showReplies(spec, *run.replies); });
        return;
    }
    startRun<RunOutcome>(
        *m_runs,
        tr("Sweeping %1 x %2...")
            .arg(app::counted(qint64(spec->seeds().size()), "seed", "seeds"),
                 app::counted(spec->draws, "draw", "draws")),
        [spec = spec.value(), dir = baseDir(), source = tr("controls"),
         threads = m_threads->value()](const app::WorkControl& control) {
            RunOutcome run;
            run.sweep = app::runSeedSweep(spec, dir, source, threads, control);
            run.status = run.sweep.status;
            run.draws = run.sweep.draws;
            run.seconds = run.sweep.seconds;
            return run;
        },
        [this, spec = spec.value()](RunOutcome& run) { showResults(spec, run.sweep); });
}

void SeedSweepPage::showResults(const app::SeedSweepSpec& spec, app::SeedSweepOutcome& outcome)
{
    m_replays->cancel();  // a replay of the previous run's seed no longer answers anything shown
    m_resultSpec = spec;
    m_outcome = std::move(outcome);
    m_hasResults = true;
    resultsShownFor(app::toJson(spec));
    // The tables logitlab-cli run writes for the same spec: one declaration, two front ends.
    const app::ExperimentResult result = app::seedSweepResult(spec, baseDir(), m_outcome, m_threads->value());
    m_tokenModel->setTable(*result.table(QString()));
    m_seedModel->setTable(*result.table(QStringLiteral("-seeds")));
    QStringList shownNames;  // cut for the axes (token_display.h); the table cuts its own
    for (const QString& name : m_outcome.tokenNames)
        shownNames << shownTokenName(name);
    m_charts->setSummary(m_outcome.summary, shownNames, m_outcome.results.size(),
                         static_cast<std::uint64_t>(m_resultSpec.draws));
    const auto& summary = m_outcome.summary;
    QString verdict;
    if (!summary.tested()) {
        // A chain that leaves one token: 0 degrees of freedom, nothing to test.
        verdict = tr("<b>No test: %1.</b><br>First seed: %2")
                      .arg(QString::fromStdString(summary.noTest).toHtmlEscaped(),
                           m_outcome.replayIdentical ? tr("replayed bit for bit") : tr("did NOT replay"));
    } else {
        verdict = tr("<b>%1</b><br>First seed: %2")
                      .arg(app::seedSweepConsistent(summary) ? tr("Consistent with a correct sampler.")
                                                             : tr("The draws do not match the claimed probabilities."))
                      .arg(m_outcome.replayIdentical ? tr("replayed bit for bit") : tr("did NOT replay"));
    }
    if (m_outcome.summary.comparedIdentical)
        verdict += tr("<br>The compared seeds drew identical sequences.");
    else if (m_outcome.summary.firstDifference)
        verdict += tr("<br>The compared seeds first differ at draw %1.").arg(*m_outcome.summary.firstDifference);
    m_verdict->setText(verdict);
    showStatistics();
    m_replaySeed->setValue(
        static_cast<int>(std::min<std::uint64_t>(m_outcome.results.front().seed, std::numeric_limits<int>::max())));
    m_replayResult->clear();
}

void SeedSweepPage::showReplies(const app::SeedSweepSpec& spec, app::SequenceSweepOutcome& outcome)
{
    m_sequenceSpec = spec;
    m_sequenceOutcome = std::move(outcome);
    m_hasReplies = true;
    resultsShownFor(app::toJson(spec));
    // The tables logitlab-cli run writes for the same spec.
    const app::ExperimentResult result =
        app::sequenceSweepResult(spec, baseDir(), m_sequenceOutcome, m_threads->value());
    m_replyModel->setTable(*result.table(QString()));
    m_replySeedModel->setTable(*result.table(QStringLiteral("-seeds")));
    m_firstDifferenceModel->setTable(*result.table(QStringLiteral("-first-difference")));
    const auto& census = m_sequenceOutcome.census;
    m_sequenceCharts->setCensus(census, static_cast<std::size_t>(spec.steps));
    const std::size_t seeds = m_sequenceOutcome.seeds.size();
    const std::size_t common = census.replies.front().seeds.size();
    m_repliesText =
        tr("<b>%1 distinct replies from %2 seeds.</b><br>The most common reply came from %3 seeds (%4%); the others "
           "first differ from it at the steps the histogram shows.<br>Most common: <i>%5</i>")
            .arg(census.replies.size())
            .arg(seeds)
            .arg(common)
            .arg(100.0 * double(common) / double(seeds), 0, 'g', 3)
            .arg(m_sequenceOutcome.replyTexts.value(0).toHtmlEscaped());
    showMode();
}

void SeedSweepPage::showSteps(const app::SeedSweepSpec& spec, app::StepSweepOutcome& outcome)
{
    m_stepSpec = spec;
    m_stepOutcome = std::move(outcome);
    m_hasSteps = true;
    resultsShownFor(app::toJson(spec));
    const app::ExperimentResult result = app::stepSweepResult(spec, baseDir(), m_stepOutcome, m_threads->value());
    m_stepModel->setTable(*result.table(QString()));
    m_stepCharts->setRows(m_stepOutcome.rows);
    const auto& rows = m_stepOutcome.rows;
    const auto tested =
        std::count_if(rows.begin(), rows.end(), [](const app::StepSweepRow& r) { return r.ksP.has_value(); });
    const auto consistent =
        std::count_if(rows.begin(), rows.end(), [](const app::StepSweepRow& r) { return r.consistent; });
    m_stepsText = tr("<b>%1 steps swept.</b><br>%2 have a valid goodness-of-fit test; at %3 of those the counts "
                     "vary by seed as chance predicts. Steps without a valid test (one token left, or too few "
                     "draws per token) show no p-value.")
                      .arg(rows.size())
                      .arg(tested)
                      .arg(consistent);
    showMode();
}

QString SeedSweepPage::replay(qint64 seed)
{
    const auto& results = m_outcome.results;
    const auto it = std::find_if(results.begin(), results.end(), [seed](const engine::SeedResult& r) {
        return r.seed == static_cast<std::uint64_t>(seed);
    });
    if (!m_hasResults || it == results.end()) {
        const QString message = tr("Seed %1 is not one of the last run's seeds.").arg(seed);
        showReplay(message);
        return message;
    }
    // Preparing the experiment and drawing the seed again is a whole seed's work: on a worker.
    m_replayResult->setText(tr("Replaying seed %1...").arg(seed));
    m_replays->start(
        [spec = m_resultSpec, dir = baseDir(), source = tr("controls"), seed,
         firstHash = it->hash](const app::WorkControl&) {
            auto input = app::toSeedSweepInput(spec, dir, source);
            auto experiment = input ? engine::SeedSweepExperiment::prepare(input->parameters)
                                    : engine::Result<engine::SeedSweepExperiment>(engine::Error{input.error()});
            if (!experiment)
                return QString::fromStdString(experiment.error());
            const std::uint64_t hash = experiment->replayHash(static_cast<std::uint64_t>(seed));
            return hash == firstHash
                       ? tr("Seed %1 replayed bit for bit (hash %2).").arg(seed).arg(hash, 16, 16, QLatin1Char('0'))
                       : tr("Seed %1 did NOT replay: hash %2, first run %3.")
                             .arg(seed)
                             .arg(hash, 16, 16, QLatin1Char('0'))
                             .arg(firstHash, 16, 16, QLatin1Char('0'));
        },
        [this](QString& message) { showReplay(message); });
    return {};
}

bool SeedSweepPage::replayRunning() const { return m_replays->isRunning(); }

void SeedSweepPage::showReplay(const QString& message)
{
    m_replayResult->setText(message);
    emit statusMessage(message);
    emit replayEnded(message);
}

QLabel* SeedSweepPage::statisticLabel(const QString& key) const { return m_statistics.value(key); }

void SeedSweepPage::showStatistics()
{
    const auto& summary = m_outcome.summary;
    m_plainWords->setText(QStringLiteral("<b>%1</b>").arg(app::seedSweepPlainWords(summary).toHtmlEscaped()));
    // A statistic that tests nothing is not shown as a number (its p-value of 1 would read as
    // "perfect").
    const QString invalid = tr("not valid here (%1)").arg(QString::fromStdString(summary.noTest));
    const auto ks = [&](const engine::KsTest& test) {
        if (!summary.tested())
            return invalid;
        if (!test.tested)
            return tr("not valid here (%1)").arg(QString::fromStdString(summary.gNoTest));
        const QString text = tr("D = %1, p = %2").arg(test.statistic, 0, 'f', 4).arg(test.pValue, 0, 'g', 3);
        return test.method == "exact" ? text : text + QStringLiteral(" (%1)").arg(QString::fromStdString(test.method));
    };
    m_statistics.value(QStringLiteral("ks"))->setText(ks(summary.chiSquareUniformity));
    m_statistics.value(QStringLiteral("g-ks"))->setText(ks(summary.gTestUniformity));
    const auto& pooled = summary.pooledChiSquare;
    m_statistics.value(QStringLiteral("pooled"))
        ->setText(summary.tested() && pooled.tested ? tr("%1 on %2 dof, p = %3")
                                                          .arg(pooled.statistic, 0, 'f', 2)
                                                          .arg(pooled.degreesOfFreedom)
                                                          .arg(pooled.pValue, 0, 'g', 3)
                                                    : invalid);
    m_statistics.value(QStringLiteral("bins"))
        ->setText(tr("%1 of %2 tokens").arg(summary.pooledBins).arg(summary.tokens.size()));
}

void SeedSweepPage::showEvent(QShowEvent* event)
{
    ExperimentPage::showEvent(event);
    // Never a blank pane: the first time the page is on screen without results, run the sweep the
    // controls describe (at the start, the lesson's exercise: a fraction of a second).
    if (m_shownOnce)
        return;
    m_shownOnce = true;
    if (!m_hasResults && !isRunning())
        run();
}

void SeedSweepPage::runStateChanged()
{
    m_replay->setEnabled(!isRunning() && !m_replays->isRunning() && m_hasResults);
    m_compareA->setEnabled(m_compare->isChecked());
    m_compareB->setEnabled(m_compare->isChecked());
}

QString SeedSweepPage::id() const { return app::seedSweepKind().id(); }

}  // namespace logitlab::ui
