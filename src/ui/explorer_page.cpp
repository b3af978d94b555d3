#include "explorer_page.h"

#include "chain_controls.h"
#include "chart_style.h"
#include "compare_chart.h"
#include "draw_chart.h"
#include "explorer_draws.h"
#include "explorer_state.h"
#include "function_command.h"
#include "input_file.h"
#include "lesson_examples.h"
#include "lesson_presets.h"
#include "logits_file.h"
#include "logits_parser.h"
#include "logits_sort_proxy.h"
#include "logits_table_model.h"
#include "number_format.h"
#include "one_line_text.h"
#include "pasted_table.h"
#include "pooled_fit_test.h"
#include "prepared_distribution.h"
#include "probability_chart.h"
#include "readout_panel.h"
#include "rng_factory.h"
#include "save_text.h"
#include "statistics.h"
#include "sweep_chart.h"
#include "synthetic_vocabulary_form.h"
#include "text_edit_delegate.h"
#include "token_reference.h"

#include <QApplication>
#include <QChartView>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeySequence>
#include <QLabel>
#include <QMimeData>
#include <QPushButton>
#include <QPromise>
#include <QScrollArea>
#include <QShortcut>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <tuple>
#include <utility>

namespace logitlab::ui {

namespace {

constexpr int kTrackedTokens = 5;  // curves in the temperature sweep

QString number(double v)
{
    return QString::fromStdString(engine::formatDouble(v));
}

// The table's names, sharing the table's lifetime.
std::shared_ptr<const std::vector<std::string>> tokenNames(const std::shared_ptr<const engine::PreparedDistribution>& table)
{
    return {table, &table->distribution.tokens};
}

QChartView* chartView(QChart* chart)
{
    auto* view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(420, 300);
    return view;
}

}  // namespace

ExplorerPage::ExplorerPage(QWidget* parent)
    : Page(parent),
      m_model(new LogitsTableModel(this)),
      m_proxy(new LogitsSortProxy(m_model, this)),
      m_undo(new QUndoStack(this)),
      m_controls(new ChainControls),
      m_chart(nullptr),
      m_sweep(new SweepChart(this)),
      m_draws(new DrawChart(this)),
      m_compare(new CompareChart(this)),
      m_vocabulary(new SyntheticVocabularyForm),
      m_tabs(new QTabWidget),
      m_table(new QTableView),
      m_readouts(new ReadoutPanel),
      m_lessonPoint(new QLabel),
      m_error(new QLabel),
      m_drawCount(new QSpinBox),
      m_drawSeed(new QSpinBox),
      m_drawRng(new QComboBox),
      m_drawButton(new QPushButton(tr("&Draw"))),
      m_sweepStop(std::make_shared<std::atomic<bool>>(false)),
      m_drawStop(std::make_shared<std::atomic<bool>>(false))
{
    const auto& first = engine::lessonPresets().front();
    m_source = tr("lesson preset: %1").arg(QString::fromStdString(first.name));
    m_model->setSettings(first.settings);
    m_model->setDistribution(first.distribution);
    m_model->setUndoStack(m_undo);
    m_controls->setChain(m_model->chain());
    m_controls->setTokenNames(tokenNames(m_model->table()));
    m_chart = new ProbabilityChart(m_model, this);
    m_lessonPoint->setText(QString::fromStdString(first.point));

    m_tabs->addTab(chartView(m_chart->chart()), tr("&Probabilities"));
    m_tabs->addTab(chartView(m_sweep->chart()), tr("Temperature &sweep"));
    m_tabs->addTab(chartView(m_draws->chart()), tr("Dra&ws"));
    m_tabs->addTab(chartView(m_compare->chart()), tr("&Compare"));
    m_tabs->setTabToolTip(CompareTab, tr("The same logits and values under the lesson, llama.cpp, hf and vllm presets."));
    m_tabs->setTabToolTip(ProbabilitiesTab, tr("What the sampler keeps: probability at T and after the cut."));
    m_tabs->setTabToolTip(SweepTab, tr("How each token's probability and the number of survivors change with T."));
    m_tabs->setTabToolTip(DrawsTab, tr("Seeded draws from the survivors, against the expected counts."));

    m_error->setObjectName(QStringLiteral("errorLabel"));
    m_error->setTextFormat(Qt::PlainText);  // a token like "<b>" in a message is text
    m_error->setStyleSheet(QStringLiteral("color: #c62828; font-weight: bold"));
    m_error->setWordWrap(true);
    m_error->hide();

    auto* right = new QSplitter(Qt::Vertical);
    right->setObjectName(QStringLiteral("explorerChartTableSplitter"));
    auto* chartPanel = new QWidget;
    auto* chartLayout = new QVBoxLayout(chartPanel);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->addWidget(m_tabs, 1);
    chartLayout->addWidget(m_readouts);
    right->addWidget(chartPanel);
    right->addWidget(buildTablePanel());
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    right->setSizes({470, 300});

    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->setObjectName(QStringLiteral("explorerParametersSplitter"));
    splitter->addWidget(buildParameters());
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({380, 900});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(splitter);
    setAcceptDrops(true);

    connect(m_controls, &ChainControls::chainEdited, this, &ExplorerPage::chainEdited);
    connect(m_controls->temperatureSlider(), &QSlider::sliderReleased, this, [this] { ++m_mergeSerial; });
    connect(m_model, &LogitsTableModel::resultsChanged, this, &ExplorerPage::resultsChanged);
    connect(m_model, &LogitsTableModel::logitsChanged, this, [this] {
        m_sweepDirty = true;
        m_controls->setTokenNames(tokenNames(m_model->table()));  // the token fields show names
        m_table->resizeColumnToContents(LogitsTableModel::LogitColumn);  // measures the visible rows only
    });
    connect(m_model, &LogitsTableModel::editRejected, this, &ExplorerPage::showError);
    connect(m_model, &LogitsTableModel::dataChanged, this, &ExplorerPage::clearError);
    connect(m_vocabulary, &SyntheticVocabularyForm::generateRequested, this, &ExplorerPage::generateVocabulary);
    connect(&m_sweepWatcher, &QFutureWatcherBase::finished, this, &ExplorerPage::sweepFinished);
    connect(&m_compareWatcher, &QFutureWatcherBase::finished, this, &ExplorerPage::compareFinished);
    connect(&m_drawWatcher, &QFutureWatcherBase::finished, this, &ExplorerPage::drawsFinished);
    connect(&m_loadWatcher, &QFutureWatcherBase::finished, this, &ExplorerPage::takeLoad);
    m_loadButtons << m_vocabulary->generateButton();
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int tab) {
        if (tab == DrawsTab && m_lastDraws.draws == 0 && !drawsRunning())
            startDraws();
        if (tab == CompareTab && m_compareDirty)
            updateCompare();
    });
    connect(m_controls->temperatureBox(), &QDoubleSpinBox::editingFinished, this, [this] { ++m_mergeSerial; });
    resultsChanged();
}

ExplorerPage::~ExplorerPage()
{
    blockSignals(true);  // the window may be half destroyed: what cancel() reports must not reach it
    cancel();
    m_loadWatcher.waitForFinished();
    m_sweepWatcher.waitForFinished();
    m_compareWatcher.waitForFinished();
    m_drawWatcher.waitForFinished();
}

QWidget* ExplorerPage::buildParameters()
{
    auto* presets = new QGroupBox(tr("Lesson presets"));
    auto* presetLayout = new QVBoxLayout(presets);
    const auto& all = engine::lessonPresets();
    for (int i = 0; i < static_cast<int>(all.size()); ++i) {
        auto* button = new QPushButton(QString::fromStdString(all[static_cast<std::size_t>(i)].name));
        button->setToolTip(QString::fromStdString(all[static_cast<std::size_t>(i)].point));
        button->setObjectName(QStringLiteral("preset%1").arg(i));
        connect(button, &QPushButton::clicked, this, [this, i] { applyPreset(i); });
        presetLayout->addWidget(button);
    }
    m_lessonPoint->setWordWrap(true);
    m_lessonPoint->setStyleSheet(QStringLiteral("font-style: italic"));
    presetLayout->addWidget(m_lessonPoint);

    auto* sampler = new QGroupBox(tr("Sampler chain"));
    auto* samplerLayout = new QVBoxLayout(sampler);
    samplerLayout->addWidget(m_controls);

    auto* vocabulary = new QGroupBox(tr("Synthetic vocabulary"));
    auto* vocabularyLayout = new QVBoxLayout(vocabulary);
    vocabularyLayout->addWidget(m_vocabulary);

    auto* draw = new QGroupBox(tr("Draw"));
    auto* drawLayout = new QFormLayout(draw);
    m_drawCount->setRange(1, 10'000'000);
    m_drawCount->setValue(1000);
    m_drawCount->setGroupSeparatorShown(true);
    m_drawCount->setToolTip(tr("How many tokens to draw from the survivors."));
    m_drawSeed->setRange(0, 2'147'483'647);
    m_drawSeed->setValue(42);
    m_drawSeed->setToolTip(tr("The same seed and generator give the same draws, here and in the lesson's code."));
    for (const auto& name : engine::rngNames())
        m_drawRng->addItem(QString::fromStdString(name));
    m_drawRng->setToolTip(tr("The random generator: mulberry32 is the lesson's, so its draws match the lesson."));
    m_drawButton->setToolTip(tr("Draw N tokens with this seed and compare the counts with N × p."));
    drawLayout->addRow(tr("Draws N"), m_drawCount);
    drawLayout->addRow(tr("Seed"), m_drawSeed);
    drawLayout->addRow(tr("Generator"), m_drawRng);
    drawLayout->addRow(QString(), m_drawButton);
    connect(m_drawButton, &QPushButton::clicked, this, [this] {
        showChart(DrawsTab);
        startDraws();
    });

    auto* panel = new QWidget;
    auto* layout = new QVBoxLayout(panel);
    layout->addWidget(presets);
    layout->addWidget(sampler);
    layout->addWidget(draw);
    layout->addWidget(vocabulary);
    layout->addStretch();
    auto* scroll = new QScrollArea;
    scroll->setWidget(panel);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumWidth(260);
    return scroll;
}

QWidget* ExplorerPage::buildTablePanel()
{
    m_table->setModel(m_proxy);
    m_table->setItemDelegate(new TextEditDelegate(m_table));
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder);  // id order until a header is clicked
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    // Fixed sizes: with 262,144 rows, measuring contents on every update would cost a frame.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setResizeContentsPrecision(0);  // fit columns to the visible rows, not 1,000
    m_table->resizeColumnsToContents();
    m_table->setColumnWidth(LogitsTableModel::TokenColumn, 110);
    m_table->setColumnWidth(LogitsTableModel::RenormalisedColumn, 110);
    m_table->setToolTip(tr("Double-click a token or logit to edit it; Ctrl+V pastes token/logit rows from a "
                           "spreadsheet; drop a CSV or text file here to open it."));

    auto* paste = new QShortcut(QKeySequence::Paste, m_table, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
    connect(paste, &QShortcut::activated, this, [this] { pasteText(QApplication::clipboard()->text()); });
    auto* del = new QShortcut(QKeySequence::Delete, m_table, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
    connect(del, &QShortcut::activated, this, &ExplorerPage::removeSelectedTokens);

    auto* add = new QPushButton(tr("&Add token"));
    add->setToolTip(tr("Adds a token below the least likely one."));
    connect(add, &QPushButton::clicked, this, &ExplorerPage::addToken);
    auto* remove = new QPushButton(tr("&Remove"));
    remove->setToolTip(tr("Removes the selected tokens (Delete)."));
    connect(remove, &QPushButton::clicked, this, &ExplorerPage::removeSelectedTokens);
    auto* pasteButton = new QPushButton(tr("Pa&ste rows"));
    pasteButton->setToolTip(tr("Replaces the table with token/logit rows from the clipboard (two columns from a "
                               "spreadsheet, or one column of logits)."));
    connect(pasteButton, &QPushButton::clicked, this, [this] { pasteText(QApplication::clipboard()->text()); });
    auto* open = new QPushButton(tr("&Open logits..."));
    open->setToolTip(tr("Reads a CSV (token,logit) or text file (one logit per line)."));
    connect(open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open logits"), QString(),
                                                          tr("Logits (*.csv *.txt *.tsv);;All files (*)"));
        if (!path.isEmpty())
            openLogitsFile(path);
    });
    m_loadButtons << pasteButton << open;
    auto* junk = new QPushButton(tr("&Junk risk of these logits"));
    junk->setObjectName(QStringLiteral("junkRiskButton"));
    junk->setToolTip(tr("Opens the junk-token risk page on this table's logits: how often a reply of N tokens "
                        "picks at least one junk token."));
    connect(junk, &QPushButton::clicked, this, [this] { emit junkRiskRequested(m_model->distribution()); });
    auto* sweep = new QPushButton(tr("Seed s&weep of these logits"));
    sweep->setObjectName(QStringLiteral("seedSweepButton"));
    sweep->setToolTip(tr("Opens the seed-sweep page on this table's logits: do many seeds draw what the sampler "
                         "claims, and does each seed replay?"));
    connect(sweep, &QPushButton::clicked, this, [this] { emit seedSweepRequested(m_model->distribution()); });
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addWidget(pasteButton);
    buttons->addWidget(open);
    buttons->addStretch();
    buttons->addWidget(junk);
    buttons->addWidget(sweep);

    m_readouts->setToolTip(tr("Measures of the distribution at this temperature, and what the filters did."));

    auto* tableColumn = new QVBoxLayout;
    tableColumn->addWidget(m_table, 1);
    tableColumn->addLayout(buttons);
    tableColumn->addWidget(m_error);
    auto* panel = new QWidget;
    panel->setLayout(tableColumn);
    tableColumn->setContentsMargins(0, 0, 0, 0);
    return panel;
}

QString ExplorerPage::title() const
{
    return tr("Explorer");
}

QChart* ExplorerPage::chart() const
{
    switch (m_tabs->currentIndex()) {
    case SweepTab: return m_sweep->chart();
    case DrawsTab: return m_draws->chart();
    case CompareTab: return m_compare->chart();
    default: return m_chart->chart();
    }
}

QAbstractItemModel* ExplorerPage::resultsModel() const
{
    return m_model;
}

QDoubleSpinBox* ExplorerPage::temperatureBox() const
{
    return m_controls->temperatureBox();
}

QSpinBox* ExplorerPage::topKBox() const
{
    return m_controls->topKBox();
}

QDoubleSpinBox* ExplorerPage::topPBox() const
{
    return m_controls->topPBox();
}

app::Provenance ExplorerPage::provenance() const
{
    const auto& s = m_model->settings();
    app::Provenance p(QStringLiteral("explorer"));
    const auto& chain = m_model->chain();
    p.add(QStringLiteral("semantics"), QString::fromStdString(engine::semanticsName(chain.semantics)));
    p.add(QStringLiteral("settings"), QString::fromStdString(engine::describeSettings(s)));
    for (const auto& field : engine::chainSettingFields())
        if (const auto& value = chain.stages.*field.field)
            p.add(QString::fromLatin1(field.name), *value);
    const auto& names = m_model->distribution().tokens;
    if (!chain.stages.logitBias.empty())
        p.add(QStringLiteral("logit-bias"),
              QString::fromStdString(engine::formatBiasReferences(chain.stages.logitBias, names)));
    if (!chain.stages.dryBreakers.empty())
        p.add(QStringLiteral("dry-breakers"), QString::fromStdString(engine::formatTokenReferences(
                                                  engine::idsFromStageList(chain.stages.dryBreakers), names)));
    if (!chain.context.empty())
        p.add(QStringLiteral("context"), QString::fromStdString(engine::formatTokenReferences(chain.context, names)));
    const auto& order = chain.stages.order.empty() ? engine::presetOrder(chain.semantics) : chain.stages.order;
    QStringList stages;
    for (const auto& stage : order)
        stages << QString::fromStdString(stage);
    p.add(QStringLiteral("order"), (chain.stages.order.empty() ? tr("preset: ") : tr("custom: ")) + stages.join(QStringLiteral(", ")));
    p.add(QStringLiteral("chain"), m_controls->chainText());
    p.add(QStringLiteral("source"), m_source);
    p.add(QStringLiteral("vocabulary size"), QString::number(m_model->rowCount()));
    const auto& logits = m_model->distribution().logits;
    if (logits.size() <= 64) {
        QStringList values;
        for (Eigen::Index i = 0; i < logits.size(); ++i)
            values << number(logits[i]);
        p.add(QStringLiteral("logits"), values.join(QLatin1Char(',')));
    }
    p.add(QStringLiteral("rng"), m_drawRng->currentText());
    p.add(QStringLiteral("seed"), QString::number(m_drawSeed->value()));
    p.add(QStringLiteral("draws"), QString::number(m_drawCount->value()));
    return p;
}

void ExplorerPage::cancel()
{
    m_sweepStop->store(true);
    m_drawStop->store(true);
    dropLoad(tr("Loading cancelled: the table is unchanged."));
}

void ExplorerPage::dropLoad(const QString& message)
{
    if (!m_loadInFlight)
        return;
    // The table stays as it is; the load's result, should it still come, is dropped.
    m_loadWatcher.cancel();
    ++m_loadGeneration;
    m_landLoad = {};
    setLoading(false);
    emit statusMessage(message);
    emit loadFinished();
}

QString ExplorerPage::lessonHtml() const
{
    return tr("<h3>Decoding: from logits to one token</h3>"
              "<p>The model's last layer gives one <b>logit</b> per token. <b>Temperature</b> divides every logit "
              "before softmax: below 1 the top token pulls ahead, above 1 the distribution flattens, and T = 0 "
              "means greedy: take the argmax.</p>"
              "<p><b>Top-k</b> keeps the k most likely tokens; <b>top-p</b> keeps the smallest set of top tokens "
              "whose total probability exceeds p. The survivors are rescaled to sum to 1 and the die is rolled "
              "on them.</p>"
              "<p>Temperature and top-p interact. For the logits [3, 2, 1.5, 1, -2] and top-p 0.9: at T = 1 the "
              "running total 0.577, 0.789, 0.918 keeps <b>3</b> tokens; at T = 0.5 (0.831, 0.943) only <b>2</b>; "
              "at T = 1.5 (0.459, 0.694, 0.863, 0.984) <b>4</b>. The Temperature sweep tab shows this for any "
              "logits.</p>"
              "<p>Pick greedy (T = 0) when the task has one right answer (code completion, an autofix patch) and "
              "T around 0.7 to 1 with top-p when it has many good ones (taglines: T = 0.9, top-p = 0.95).</p>");
}

void ExplorerPage::reset()
{
    applyPreset(0);
}

void ExplorerPage::chainEdited(const engine::ExplorerChain& chain, bool temperatureOnly)
{
    const engine::ExplorerChain before = m_model->chain();
    // A chain the preset cannot run is shown by the controls and not applied: the page keeps
    // computing with the last good one.
    if (before == chain || engine::validateExplorerChain(chain))
        return;
    const QString what = temperatureOnly ? tr("Temperature %1").arg(number(chain.lesson.temperature))
                                         : tr("Sampler settings");
    // A slider drag is one undo step: steps of one drag share a merge id.
    m_undo->push(new FunctionCommand(
        what, [this, chain] { applyChain(chain); }, [this, before] { applyChain(before); },
        temperatureOnly ? 1 + m_mergeSerial % 1'000'000 : -1));
}

void ExplorerPage::applyChain(const engine::ExplorerChain& chain)
{
    m_controls->setChain(chain);
    m_model->setChain(chain);
}

void ExplorerPage::replaceAll(engine::Distribution distribution, const engine::ExplorerChain& chain,
                              const QString& what, const QString& source)
{
    replaceTable(std::make_shared<const engine::PreparedDistribution>(engine::prepareDistribution(std::move(distribution))),
                 chain, what, source);
}

void ExplorerPage::replaceTable(std::shared_ptr<const engine::PreparedDistribution> table,
                                const engine::ExplorerChain& chain, const QString& what, const QString& source,
                                std::optional<engine::SamplerAnalysis> analysis)
{
    // The step holds both tables, immutable and shared with the model: undo and redo swap
    // pointers instead of copying a vocabulary of 262,144 names. A loader's analysis serves the
    // first redo (the push); later ones analyse again, as undo does.
    auto before = m_model->table();
    const engine::ExplorerChain chainBefore = m_model->chain();
    const QString sourceBefore = m_source;
    auto first = std::make_shared<std::optional<engine::SamplerAnalysis>>(std::move(analysis));
    clearError();
    m_undo->push(new FunctionCommand(
        what,
        [this, table = std::move(table), chain, source, first] {
            showTable(table, chain, source, std::exchange(*first, std::nullopt));
        },
        [this, before = std::move(before), chainBefore, sourceBefore] { showTable(before, chainBefore, sourceBefore); }));
}

void ExplorerPage::showTable(const std::shared_ptr<const engine::PreparedDistribution>& table,
                             const engine::ExplorerChain& chain, const QString& source,
                             std::optional<engine::SamplerAnalysis> analysis)
{
    m_source = source;
    m_controls->setChain(chain);
    m_model->setTable(table, chain, std::move(analysis));
}

void ExplorerPage::applyPreset(int index)
{
    const auto& all = engine::lessonPresets();
    if (index < 0 || index >= static_cast<int>(all.size()))
        return;
    const auto& preset = all[static_cast<std::size_t>(index)];
    const QString name = QString::fromStdString(preset.name);
    // The newest action wins: a load still running would otherwise replace the preset on landing.
    dropLoad(tr("Loading stopped for the preset."));
    // The lesson's situations run under the lesson's rules, with no further stage.
    replaceAll(preset.distribution, engine::ExplorerChain{engine::Semantics::Lesson, preset.settings, {}, {}},
               tr("Preset: %1").arg(name), tr("lesson preset: %1").arg(name));
    m_lessonPoint->setText(QString::fromStdString(preset.point));
    emit statusMessage(QString::fromStdString(preset.point));
}

void ExplorerPage::generateVocabulary(const engine::SyntheticSpec& spec)
{
    if (auto problem = engine::validateSynthetic(spec)) {
        showError(QString::fromStdString(*problem));
        return;
    }
    const bool zipf = spec.shape == engine::SyntheticSpec::Shape::Zipf;
    const QString shape = zipf ? tr("Zipf s = %1").arg(number(spec.exponent))
                               : tr("normal μ = %1, σ = %2").arg(number(spec.mean), number(spec.deviation));
    const QString source = tr("synthetic %1, V = %2, seed %3").arg(shape).arg(spec.size).arg(spec.seed);
    startLoad(tr("Generating %L1 tokens...").arg(spec.size),
              [spec] { return LoadedTable::of(engine::syntheticVocabulary(spec)); },
              [this, spec, source](LoadedTable& loaded) {
                  replaceTable(loaded.table, m_model->chain(), tr("Generate %1 tokens").arg(spec.size), source,
                               std::move(loaded.analysis));
                  m_lessonPoint->setText(
                      tr("%L1 tokens: the chart shows the top %2 and one bar for the rest of the vocabulary.")
                          .arg(spec.size)
                          .arg(ProbabilityChart::kTopBars));
                  emit statusMessage(tr("Generated %1").arg(source));
              });
}

QString ExplorerPage::openLogitsFile(const QString& path)
{
    // A file that cannot even be opened is said at once; what is wrong inside it, when the
    // worker has read it.
    if (auto problem = app::logitsFileProblem(path)) {
        const QString message = QString::fromStdString(*problem);
        showError(message);
        return message;
    }
    const QString name = QFileInfo(path).fileName();
    startLoad(
        tr("Reading %1...").arg(path),
        [path] {
            auto result = app::readLogitsFile(path);
            return result ? LoadedTable::of(std::move(result).value())
                          : LoadedTable::failure(QString::fromStdString(result.error()));
        },
        [this, path, name](LoadedTable& loaded) {
            replaceTable(loaded.table, m_model->chain(), tr("Open %1").arg(name), tr("file: %1").arg(name),
                         std::move(loaded.analysis));
            emit statusMessage(tr("Read %1 tokens from %2").arg(m_model->rowCount()).arg(path));
        });
    return {};
}

void ExplorerPage::pasteText(const QString& text)
{
    startLoad(
        tr("Reading the pasted rows..."),
        [text] {
            auto table = engine::parsePastedTable(text.toStdString());
            const auto good = table.distribution.logits.size();
            QStringList problems;
            for (const auto& p : table.problems)
                problems << tr("row %1: %2").arg(p.row).arg(QString::fromStdString(p.message));
            if (good == 0)
                return LoadedTable::failure(problems.isEmpty()
                                                ? tr("Paste: the clipboard holds no token/logit rows.")
                                                : tr("Paste: no usable rows; %1.").arg(problems.join(QStringLiteral("; "))));
            if (auto problem = engine::validateLogits(table.distribution.logits))
                return LoadedTable::failure(tr("Paste: %1.").arg(QString::fromStdString(*problem)));
            LoadedTable loaded = LoadedTable::of(std::move(table.distribution));
            if (!problems.isEmpty())
                loaded.warning = tr("Pasted %1 rows; skipped %2 bad rows: %3.")
                                     .arg(good)
                                     .arg(problems.size())
                                     .arg(problems.join(QStringLiteral("; ")));
            return loaded;
        },
        [this](LoadedTable& loaded) {
            replaceTable(loaded.table, m_model->chain(), tr("Paste %1 rows").arg(loaded.table->distribution.logits.size()),
                         tr("pasted rows"), std::move(loaded.analysis));
            if (!loaded.warning.isEmpty())
                showError(loaded.warning);
        });
}

void ExplorerPage::startLoad(const QString& message, LoadRead read, LoadLanding land)
{
    // The newest load wins: the one in flight is stopped and its result will be dropped.
    m_loadWatcher.cancel();
    const int generation = ++m_loadGeneration;
    m_landLoad = std::move(land);
    setLoading(true);
    emit statusMessage(message);
    m_loadWatcher.setFuture(QtConcurrent::run([read = std::move(read), generation, pageChain = m_model->chain()](
                                                  QPromise<std::shared_ptr<LoadedTable>>& promise) {
        LoadedTable loaded = read();
        if (promise.isCanceled())
            return;
        // Everything that scans or sorts the vocabulary is done here, once: the orders by logit
        // and by name, and the computed columns under the chain the table will be shown with.
        if (loaded.error.isEmpty()) {
            loaded.table = std::make_shared<const engine::PreparedDistribution>(
                engine::prepareDistribution(std::move(loaded.distribution)));
            loaded.analysedChain = loaded.chainWith(pageChain);
            loaded.analysis = LogitsTableModel::analyse(*loaded.table, loaded.analysedChain);
        }
        loaded.generation = generation;
        promise.addResult(std::make_shared<LoadedTable>(std::move(loaded)));
    }));
}

void ExplorerPage::takeLoad()
{
    const QFuture<std::shared_ptr<LoadedTable>> future = m_loadWatcher.future();
    if (future.isCanceled() || future.resultCount() == 0)
        return;  // cancelled, or superseded: whoever did that has already ended the busy state
    LoadedTable& loaded = *future.result();
    if (loaded.generation != m_loadGeneration)
        return;
    if (loaded.chainWith(m_model->chain()) != loaded.analysedChain)
        loaded.analysis.reset();  // the chain was changed while loading: the model analyses again
    const LoadLanding land = std::exchange(m_landLoad, {});
    setLoading(false);
    if (loaded.table)
        land(loaded);
    else
        showError(loaded.error);
    emit loadFinished();
}

void ExplorerPage::setLoading(bool loading)
{
    for (QPushButton* button : m_loadButtons)
        button->setEnabled(!loading);
    if (loading != m_loadInFlight) {
        m_loadInFlight = loading;
        emit busyChanged(loading);
    }
}

void ExplorerPage::addToken()
{
    // Copying a vocabulary of 262,144 names and sorting it again is a load like any other: it
    // runs on the worker, so the UI thread only swaps the table in.
    const QString source = m_source;
    startLoad(
        tr("Adding a token..."),
        [table = m_model->table()] {
            engine::Distribution d = table->distribution;
            const auto n = d.logits.size();
            const double lowest = n > 0 ? d.logits.minCoeff() : 0.0;
            d.logits.conservativeResize(n + 1);
            d.logits[n] = std::isfinite(lowest) ? lowest - 1.0 : 0.0;
            d.tokens.push_back(tr("token %1").arg(n).toStdString());
            return LoadedTable::of(std::move(d));
        },
        [this, source](LoadedTable& loaded) {
            replaceTable(loaded.table, m_model->chain(), tr("Add token"), source, std::move(loaded.analysis));
            m_table->scrollToBottom();
        });
}

void ExplorerPage::removeSelectedTokens()
{
    std::vector<int> rows;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows())
        rows.push_back(m_proxy->mapToSource(index).row());
    if (rows.empty()) {
        showError(tr("Select the rows to remove first."));
        return;
    }
    if (static_cast<Eigen::Index>(rows.size()) >= m_model->distribution().logits.size()) {
        showError(tr("At least one token must stay."));
        return;
    }
    const QString source = m_source;
    const int removed = static_cast<int>(rows.size());
    startLoad(
        tr("Removing %n token(s)...", nullptr, removed),
        [table = m_model->table(), rows = std::move(rows)] {
            const engine::Distribution& d = table->distribution;
            std::vector<bool> gone(static_cast<std::size_t>(d.logits.size()), false);
            for (int r : rows)
                gone[static_cast<std::size_t>(r)] = true;
            engine::Distribution kept;
            std::vector<double> logits;
            for (std::size_t i = 0; i < gone.size(); ++i)
                if (!gone[i]) {
                    kept.tokens.push_back(d.tokens[i]);
                    logits.push_back(d.logits[static_cast<Eigen::Index>(i)]);
                }
            kept.logits = Eigen::Map<const Eigen::ArrayXd>(logits.data(), static_cast<Eigen::Index>(logits.size()));
            if (auto problem = engine::validateLogits(kept.logits))
                return LoadedTable::failure(tr("Cannot remove those rows: %1.").arg(QString::fromStdString(*problem)));
            return LoadedTable::of(std::move(kept));
        },
        [this, source, removed](LoadedTable& loaded) {
            replaceTable(loaded.table, m_model->chain(), tr("Remove %n token(s)", nullptr, removed), source,
                         std::move(loaded.analysis));
        });
}

void ExplorerPage::showChart(ChartTab tab)
{
    m_tabs->setCurrentIndex(tab);
}

void ExplorerPage::resultsChanged()
{
    updateReadouts();
    m_sweep->setCurrentTemperature(m_model->settings().temperature);
    // The sweep varies T itself: only the other parts of the chain make it stale.
    engine::ExplorerChain atOne = m_model->chain();
    atOne.lesson.temperature = 1.0;
    if (m_sweepDirty || atOne != m_sweptChain)
        startSweep();
    // Compare runs four chains: only when it is on screen.
    m_compareDirty = true;
    if (m_tabs->currentIndex() == CompareTab)
        updateCompare();
    // Draws belong to the settings they were made with: redo them if they are on screen.
    m_lastDraws = {};
    if (m_tabs->currentIndex() == DrawsTab)
        startDraws();
    else
        m_draws->clear(tr("Settings changed: press Draw to sample again."));
}

QStringList ExplorerPage::readoutLines() const
{
    const auto& a = m_model->analysis();
    const auto n = m_model->rowCount();
    return {
        tr("Survivors: %L1 of %L2").arg(a.survivors.size()).arg(n),
        tr("Mass removed by the filters: %1").arg(QString::number(a.massRemoved, 'f', 4)),
        tr("Cut: %1").arg(m_model->cutDescription()),
        tr("Entropy at T: %1 nats = %2 bits")
            .arg(QString::number(a.entropyNats, 'f', 3), QString::number(a.entropyBits, 'f', 3)),
        tr("Perplexity (effective vocabulary): %1").arg(QString::number(a.perplexity, 'f', 2)),
        tr("P(draw outside the top 1): %1").arg(QString::number(a.outsideTop1, 'f', 4)),
    };
}

QString ExplorerPage::readoutText() const
{
    return m_readouts->text();
}

void ExplorerPage::updateReadouts()
{
    m_readouts->setReadouts(readoutLines(), m_model->settings().temperature == 0.0);
}

std::pair<std::vector<std::int32_t>, QStringList> ExplorerPage::topTokens(int count) const
{
    std::pair<std::vector<std::int32_t>, QStringList> top;
    const auto& order = m_model->idsByLogit();
    for (std::size_t i = 0; i < order.size() && i < static_cast<std::size_t>(count); ++i) {
        top.first.push_back(order[i]);
        top.second << m_model->shownName(order[i]);
    }
    return top;
}

void ExplorerPage::updateCompare()
{
    // Four chains over the whole vocabulary: on a worker, like the sweep. While one runs, the
    // newest request waits and starts when it ends, so a slider drag shows the latest result.
    if (m_compareInFlight) {
        m_comparePending = true;
        return;
    }
    m_compareDirty = false;
    auto table = m_model->table();
    if (table->distribution.logits.size() == 0 || table->problem)
        return;
    std::tie(m_compareIds, m_compareNames) = topTokens(CompareChart::kTopBars);
    m_compareInFlight = true;
    m_compareWatcher.setFuture(QtConcurrent::run([table = std::move(table), chain = m_model->chain()] {
        return CompareOutcome{engine::compareSemantics(table->distribution.logits, chain)};
    }));
}

void ExplorerPage::compareFinished()
{
    m_compareInFlight = false;
    if (m_comparePending) {
        m_comparePending = false;
        updateCompare();
        return;
    }
    m_compare->setResults(m_compareWatcher.result().results, m_compareIds, m_compareNames);
}

bool ExplorerPage::compareRunning() const
{
    return m_compareInFlight || m_comparePending;
}

void ExplorerPage::startSweep()
{
    if (m_sweepWatcher.isRunning()) {
        m_sweepStop->store(true);
        m_sweepPending = true;
        return;
    }
    m_sweepDirty = false;
    m_sweptChain = m_model->chain();
    m_sweptChain.lesson.temperature = 1.0;
    // The table is immutable and shared: the worker reads it in place (a copy of 262,144
    // logits is milliseconds of page faults on the UI thread), and its validity is known.
    auto table = m_model->table();
    if (table->distribution.logits.size() == 0 || table->problem)
        return;
    std::vector<std::int32_t> tracked;
    std::tie(tracked, m_sweepNames) = topTokens(kTrackedTokens);
    m_sweepStop = std::make_shared<std::atomic<bool>>(false);
    const engine::ExplorerChain base = m_sweptChain;
    auto stop = m_sweepStop;
    m_sweepInFlight = true;
    m_sweepWatcher.setFuture(QtConcurrent::run([table = std::move(table), base, tracked, stop] {
        return engine::explorerChainSweep(table->distribution.logits, base, engine::sweepTemperatures(), tracked,
                                          [stop] { return stop->load(); });
    }));
}

void ExplorerPage::sweepFinished()
{
    m_sweepInFlight = false;
    if (m_sweepPending) {
        m_sweepPending = false;
        startSweep();
        return;
    }
    if (m_sweepStop->load())
        return;
    QStringList filters;
    const auto& swept = m_sweptChain.lesson;
    if (!m_sweptChain.lessonOnly())
        filters << QString::fromStdString(engine::semanticsName(m_sweptChain.semantics));
    if (swept.topK)
        filters << tr("top-k %1").arg(*swept.topK);
    if (swept.topP)
        filters << tr("top-p %1").arg(number(*swept.topP));
    for (const auto& field : engine::chainSettingFields())
        if (const auto& value = m_sweptChain.stages.*field.field)
            filters << QStringLiteral("%1 %2").arg(QString::fromLatin1(field.name), number(*value));
    m_sweep->setSweep(m_sweepWatcher.result(), m_sweepNames, filters.isEmpty() ? tr("no filter") : filters.join(tr(", ")));
    m_sweep->setCurrentTemperature(m_model->settings().temperature);
}

bool ExplorerPage::sweepRunning() const
{
    return m_sweepInFlight || m_sweepPending;
}

void ExplorerPage::startDraws()
{
    if (m_drawWatcher.isRunning()) {
        m_drawStop->store(true);
        m_drawWatcher.waitForFinished();  // stops within 4,096 draws
    }
    const auto& d = m_model->distribution();
    if (m_model->survivors().empty())
        return;
    const auto n = static_cast<std::uint64_t>(m_drawCount->value());
    const std::string rng = m_drawRng->currentText().toStdString();
    const auto seed = static_cast<std::uint64_t>(m_drawSeed->value());
    const engine::ExplorerChain chain = m_model->chain();
    m_drawCaption = tr("%L1 draws, %2 seed %3, %4 draw rule")
                        .arg(n)
                        .arg(m_drawRng->currentText())
                        .arg(seed)
                        .arg(QString::fromStdString(engine::semanticsName(chain.semantics)));
    m_drawStop = std::make_shared<std::atomic<bool>>(false);
    auto stop = m_drawStop;
    m_drawButton->setEnabled(false);
    m_drawInFlight = true;
    emit busyChanged(true);
    m_drawWatcher.setFuture(QtConcurrent::run([logits = d.logits, chain, n, rng, seed, stop] {
        DrawOutcome outcome;
        auto draws = engine::explorerDraws(logits, chain, n, rng, seed, [stop] { return stop->load(); });
        if (draws)
            outcome.draws = std::move(draws).value();
        else
            outcome.error = QString::fromStdString(draws.error());
        return outcome;
    }));
}

void ExplorerPage::drawsFinished()
{
    m_drawInFlight = false;
    m_drawButton->setEnabled(true);
    emit busyChanged(false);
    const DrawOutcome outcome = m_drawWatcher.result();
    if (!outcome.error.isEmpty()) {
        m_draws->clear(outcome.error);
        emit statusMessage(outcome.error);
        return;
    }
    const auto& counts = outcome.draws.counts;
    if (m_drawStop->load()) {
        emit statusMessage(tr("Draws cancelled after %L1").arg(counts.draws));
        return;
    }
    m_lastDraws = counts;
    m_drawnList = outcome.draws.expected;
    QStringList names;
    for (const auto& c : m_drawnList) {
        if (names.size() > DrawChart::kTopBars)
            break;
        names << m_model->shownName(c.id);
    }
    std::vector<double> expected;
    for (const auto& c : m_drawnList)
        expected.push_back(c.p);
    // Pooled so the test is valid where it is shown (a 262,144-token tail expects < 1 draw per bin).
    const QString test = QString::fromStdString(engine::pooledChiSquare(counts.counts, expected).describe());
    m_draws->setResult(m_drawnList, counts, names, m_drawCaption, test);
    emit statusMessage(tr("%1: %2").arg(m_drawCaption, test));
}

bool ExplorerPage::drawsRunning() const
{
    return m_drawInFlight;
}

QString ExplorerPage::saveExperiment(const QString& path)
{
    app::ExplorerState state;
    state.distribution = m_model->distribution();
    state.chain = m_model->chain();
    state.rng = m_drawRng->currentText();
    state.seed = static_cast<quint64>(m_drawSeed->value());
    state.draws = m_drawCount->value();
    return app::saveBytes(path, app::explorerStateToJson(state));
}

QString ExplorerPage::openExperiment(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("json"))
        return openLogitsFile(path);  // a plain logits file
    // Not a regular file (a device, a FIFO) or over the size limit: said at once, never read.
    if (auto problem = app::inputFileProblem(path))
        return QString::fromStdString(*problem);
    const QString name = QFileInfo(path).fileName();
    startLoad(
        tr("Opening %1...").arg(path),  // read and parsed on the worker: a 262,144-token experiment is megabytes of JSON
        [path, name] {
            const auto bytes = app::readInputFile(path);
            if (!bytes)
                return LoadedTable::failure(QString::fromStdString(bytes.error()));
            auto state = app::explorerStateFromJson(bytes.value(), name);
            if (!state)
                return LoadedTable::failure(QString::fromStdString(state.error()));
            LoadedTable loaded = LoadedTable::of(std::move(state.value().distribution));
            loaded.experiment = std::move(state).value();
            return loaded;
        },
        [this, name](LoadedTable& loaded) {
            const app::ExplorerState& state = *loaded.experiment;
            m_drawRng->setCurrentText(state.rng);
            m_drawSeed->setValue(static_cast<int>(std::min<quint64>(state.seed, 2'147'483'647)));
            m_drawCount->setValue(static_cast<int>(std::min<qint64>(state.draws, 10'000'000)));
            replaceTable(loaded.table, state.chain, tr("Open %1").arg(name), tr("experiment: %1").arg(name),
                         std::move(loaded.analysis));
        });
    return {};
}

void ExplorerPage::showError(const QString& raw)
{
    const QString message = app::oneLineText(raw);  // it may quote a file's bytes
    m_error->setText(message);
    m_error->show();
    emit statusMessage(message);
}

void ExplorerPage::clearError()
{
    m_error->hide();
}

void ExplorerPage::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void ExplorerPage::dropEvent(QDropEvent* event)
{
    const auto urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile()) {
        openExperiment(urls.front().toLocalFile());
        event->acceptProposedAction();
    }
}

void ExplorerPage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange)  // the desktop switched light/dark
        for (QChart* c : {m_chart->chart(), m_sweep->chart(), m_draws->chart(), m_compare->chart()})
            styleChart(c, palette());
    Page::changeEvent(event);
}

}  // namespace logitlab::ui
