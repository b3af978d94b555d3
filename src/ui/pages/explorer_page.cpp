#include "ui/pages/explorer_page.h"
#include "ui/pages/chart_share.h"
#include "ui/pages/control_scroll.h"
#include "ui/pages/explorer_presentation.h"

#include "app/io/save_text.h"
#include "app/kinds/explorer_provenance.h"
#include "app/kinds/explorer_run.h"
#include "app/kinds/explorer_state.h"
#include "app/kinds/junk_risk_spec.h"
#include "app/kinds/seed_sweep_spec.h"
#include "app/run/busy_counter.h"
#include "app/text/one_line_text.h"
#include "charts/chart_style.h"
#include "charts/compare_chart.h"
#include "charts/draw_chart.h"
#include "charts/probability_chart.h"
#include "charts/sweep_chart.h"
#include "engine/sampler/lesson_presets.h"
#include "ui/forms/chain_controls.h"
#include "ui/forms/flow_layout.h"
#include "ui/forms/numeric_entry.h"
#include "ui/forms/step_picker_dialog.h"
#include "ui/forms/synthetic_vocabulary_form.h"
#include "ui/forms/text_edit_delegate.h"
#include "ui/models/logits_sort_proxy.h"
#include "ui/models/logits_table_model.h"
#include "ui/pages/draw_panel.h"
#include "ui/pages/explorer_table_controller.h"
#include "ui/pages/explorer_views.h"
#include "ui/pages/readout_panel.h"

#include <QApplication>
#include <QChartView>
#include <QCheckBox>
#include <QClipboard>
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
#include <QLineEdit>
#include <QMimeData>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QUndoStack>

#include <QVBoxLayout>
#include <utility>

#include <initializer_list>

namespace logitlab::ui {

namespace {

// The table's names, sharing the table's lifetime.
std::shared_ptr<const std::vector<std::string>>
tokenNames(const std::shared_ptr<const engine::PreparedDistribution>& table)
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
    : Page(parent), m_model(new LogitsTableModel(this)), m_proxy(new LogitsSortProxy(m_model, this)),
      m_undo(new QUndoStack(this)), m_controls(new ChainControls), m_chart(nullptr), m_sweep(new SweepChart(this)),
      m_draws(new DrawChart(this)), m_compare(new CompareChart(this)), m_vocabulary(new SyntheticVocabularyForm),
      m_drawPanel(new DrawPanel), m_bars(new QSpinBox), m_tabs(new QTabWidget), m_table(new QTableView),
      m_readouts(new ReadoutPanel), m_lessonPoint(new QLabel), m_error(new QLabel), m_busy(new app::BusyCounter(this)),
      m_edits(new ExplorerTableController(m_model, m_undo, this)),
      m_views(new ExplorerViews(m_model, m_sweep, m_compare, m_draws, m_drawPanel, this))
{
    const auto& first = engine::lessonPresets().front();
    m_model->setSettings(first.settings);
    m_model->setDistribution(first.distribution);
    m_model->setUndoStack(m_undo);
    m_controls->setChain(m_model->chain());
    m_controls->setTokenNames(tokenNames(m_model->table()));
    m_chart = new ProbabilityChart(&m_model->snapshot(), this);
    connect(m_model, &LogitsTableModel::resultsChanged, m_chart, &ProbabilityChart::rebuild);
    m_lessonPoint->setText(QString::fromStdString(first.point));

    m_tabs->addTab(chartView(m_chart->chart()), tr("&Probabilities"));
    m_tabs->addTab(chartView(m_sweep->chart()), tr("Temperature &sweep"));
    auto* drawsPane = new QWidget;
    auto* drawsLayout = new QVBoxLayout(drawsPane);
    drawsLayout->setContentsMargins(0, 0, 0, 0);
    drawsLayout->addWidget(chartView(m_draws->chart()), 1);
    auto* strip = new QLabel;
    strip->setObjectName(QStringLiteral("drawStrip"));
    strip->setWordWrap(true);
    strip->setTextFormat(Qt::RichText);
    strip->setToolTip(tr("The first draws of this run against the run before it: the same seed and generator "
                         "give the same tokens, another seed parts from them."));
    connect(m_views, &ExplorerViews::drawStripChanged, strip, &QLabel::setText);
    drawsLayout->addWidget(strip);
    m_tabs->addTab(drawsPane, tr("Dra&ws"));
    m_tabs->addTab(chartView(m_compare->chart()), tr("&Compare"));
    m_tabs->setTabToolTip(CompareTab,
                          tr("The same logits and values under the lesson, llama.cpp, hf and vllm presets."));
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
    // For a class: numbers on the bars (493 / 393 / 114 readable from a projector) and a fixed
    // axis, so the bars visibly flatten with temperature instead of the axis rescaling.
    // Short names (the tooltips say the rest): the four fit one line at 200% on 1024 px.
    auto* values = new QCheckBox(tr("&Values"));
    values->setObjectName(QStringLiteral("valuesOnBars"));
    values->setToolTip(tr("Print each bar's probability (and the draws' counts) on the bar."));
    connect(values, &QCheckBox::toggled, this, [this](bool on) {
        m_chart->setValuesOnBars(on);
        m_draws->setValuesOnBars(on);
    });
    auto* fixedAxis = new QCheckBox(tr("Fi&xed 0..1"));
    fixedAxis->setObjectName(QStringLiteral("fixedAxis"));
    fixedAxis->setToolTip(tr("Keep the probability axis at 0..1 while T or the filters change."));
    connect(fixedAxis, &QCheckBox::toggled, m_chart, &ProbabilityChart::setFixedAxis);
    // The long tail on a log axis, and the running total with the top-p line: the bar that
    // first reaches the line is the last token top-p keeps.
    auto* logScale = new QCheckBox(tr("&Log"));
    logScale->setObjectName(QStringLiteral("logScale"));
    logScale->setToolTip(tr("Probability on a log axis, so the tail's bars are visible beside the head's."));
    connect(logScale, &QCheckBox::toggled, m_chart, &ProbabilityChart::setLogScale);
    connect(logScale, &QCheckBox::toggled, fixedAxis, [fixedAxis](bool on) { fixedAxis->setEnabled(!on); });
    auto* cumulative = new QCheckBox(tr("C&umulative"));
    cumulative->setObjectName(QStringLiteral("cumulative"));
    cumulative->setToolTip(tr("Running totals, most likely first, with a line at top-p: top-p keeps the tokens "
                              "up to the first bar that reaches the line."));
    connect(cumulative, &QCheckBox::toggled, m_chart, &ProbabilityChart::setCumulative);
    auto* chartOptions = new QWidget;
    auto* optionFlow = new FlowLayout(chartOptions);
    for (QCheckBox* box : {values, fixedAxis, logScale, cumulative})
        optionFlow->addWidget(box);
    chartLayout->addWidget(chartOptions);
    chartLayout->addWidget(m_readouts);
    right->addWidget(chartPanel);
    right->addWidget(buildTablePanel());
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    right->setSizes({470, 300});
    // The tabs' bar is about a twentieth of the window at 200%: the chart itself keeps 42%.
    keepChartShare(right, 0, m_tabs, 0.47);

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

    connectParts();
    resultsChanged();
}

ExplorerPage::~ExplorerPage()
{
    blockSignals(true);  // the window may be half destroyed: what cancel() reports must not reach it
    cancel();
    // Their controllers wait for the workers; before the model and charts they land in go, and
    // nothing being torn down may call into them afterwards.
    for (QObject* source :
         std::initializer_list<QObject*>{m_model, m_tabs, m_controls, m_drawPanel, m_vocabulary, m_undo})
        source->disconnect(this);
    delete m_views;
    delete m_edits;
}

void ExplorerPage::connectParts()
{
    connect(m_controls, &ChainControls::chainEdited, m_edits, &ExplorerTableController::editChain);
    connect(m_controls->temperatureSlider(), &QSlider::sliderReleased, m_edits, &ExplorerTableController::endMerge);
    connect(m_controls->temperatureBox(), &QDoubleSpinBox::editingFinished, m_edits,
            &ExplorerTableController::endMerge);
    connect(m_model, &LogitsTableModel::resultsChanged, this, &ExplorerPage::resultsChanged);
    connect(m_model, &LogitsTableModel::logitsChanged, this, [this] {
        m_views->logitsChanged();
        m_controls->setTokenNames(tokenNames(m_model->table()));         // the token fields show names
        m_table->resizeColumnToContents(LogitsTableModel::LogitColumn);  // measures the visible rows only
    });
    connect(m_model, &LogitsTableModel::editRejected, this, &ExplorerPage::showError);
    connect(m_model, &LogitsTableModel::dataChanged, this, &ExplorerPage::clearError);
    connect(m_vocabulary, &SyntheticVocabularyForm::generateRequested, this, &ExplorerPage::generateVocabulary);

    connect(m_edits, &ExplorerTableController::chainShown, m_controls, &ChainControls::setChain);
    connect(m_edits, &ExplorerTableController::loadFinished, this, [this] {
        // An opened file's contents are what the file holds, not an edit.
        if (std::exchange(m_savedWhenLoaded, false))
            m_undo->setClean();
        // A real vocabulary in id order starts with byte tokens nobody looks for: a large table
        // opens with its most likely tokens on top (a header click still sorts as the user wants).
        if (m_model->rowCount() > kSortedByProbabilityFrom && m_table->horizontalHeader()->sortIndicatorSection() < 0)
            m_table->sortByColumn(LogitsTableModel::ProbabilityColumn, Qt::DescendingOrder);
    });
    connect(m_edits, &ExplorerTableController::loadFinished, this, &ExplorerPage::loadFinished);
    connect(m_undo, &QUndoStack::cleanChanged, this, &Page::modifiedChanged);
    connect(m_edits, &ExplorerTableController::errorRaised, this, &ExplorerPage::showError);
    connect(m_edits, &ExplorerTableController::errorCleared, this, &ExplorerPage::clearError);
    connect(m_edits, &ExplorerTableController::statusMessage, this, &Page::statusMessage);
    connect(m_edits, &ExplorerTableController::lessonPointChanged, m_lessonPoint, &QLabel::setText);
    connect(m_edits, &ExplorerTableController::drawSettingsLoaded, m_drawPanel, &DrawPanel::setSettings);
    connect(m_drawPanel, &DrawPanel::settingsChanged, this,
            [this] { m_views->drawsStale(m_tabs->currentIndex() == DrawsTab); });
    connect(m_edits, &ExplorerTableController::tokenAdded, m_table, &QTableView::scrollToBottom);
    connect(m_views, &ExplorerViews::statusMessage, this, &Page::statusMessage);

    // Busy while a load or draws run, counted: one ending does not hide the other.
    connect(m_busy, &app::BusyCounter::busyChanged, this, &Page::busyChanged);
    for (app::RunControllerBase* runs : {m_edits->loadRuns(), m_views->drawRuns()})
        connect(runs, &app::RunControllerBase::busyChanged, m_busy, &app::BusyCounter::change);
    connect(m_views->drawRuns(), &app::RunControllerBase::busyChanged, m_drawPanel, &DrawPanel::setDrawing);
    m_loadButtons << m_vocabulary->generateButton();
    // A dump's step scan reports progress (Cancel stops it); then the step and vocabulary are asked.
    connect(m_edits->loadRuns(), &app::RunControllerBase::progressChanged, this, &Page::progressChanged);
    connect(m_edits, &ExplorerTableController::stepsScanned, this, &ExplorerPage::chooseStep);
    connect(m_edits->loadRuns(), &app::RunControllerBase::busyChanged, this, [this](bool loading) {
        for (QPushButton* button : m_loadButtons)
            button->setEnabled(!loading);
    });

    connect(m_drawPanel, &DrawPanel::drawRequested, this, [this] {
        showChart(DrawsTab);
        startDraws();
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int tab) {
        if (tab == DrawsTab)
            m_views->drawsShown();
        if (tab == CompareTab)
            m_views->compareShown();
    });
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
    m_lessonPoint->setObjectName(QStringLiteral("lessonPoint"));
    m_lessonPoint->setWordWrap(true);
    m_lessonPoint->setStyleSheet(QStringLiteral("font-style: italic"));
    presetLayout->addWidget(m_lessonPoint);

    auto* sampler = new QGroupBox(tr("Sampler chain"));
    auto* samplerLayout = new QVBoxLayout(sampler);
    samplerLayout->addWidget(m_controls);

    auto* vocabulary = new QGroupBox(tr("Synthetic vocabulary"));
    auto* vocabularyLayout = new QVBoxLayout(vocabulary);
    vocabularyLayout->addWidget(m_vocabulary);

    // How many tokens get a bar of their own before the rest's: fewer for a one-column figure,
    // more to see further down a large vocabulary. Saved with the experiment.
    m_bars->setObjectName(QStringLiteral("topBars"));
    m_bars->setRange(1, app::ExplorerState::kMaxBars);
    m_bars->setValue(app::ExplorerState::kDefaultBars);
    m_bars->setToolTip(tr("The chart's bars: the most likely tokens, then one bar for the rest of the vocabulary "
                          "(1 to %1).")
                           .arg(app::ExplorerState::kMaxBars));
    connect(m_bars, &QSpinBox::valueChanged, m_chart, &ProbabilityChart::setTopBars);
    connect(m_edits, &ExplorerTableController::barsLoaded, m_bars, &QSpinBox::setValue);
    // In this scrolling panel rather than beside the chart's check boxes, which fill their line
    // at 200% on a 1024 px screen.
    auto* chartBox = new QGroupBox(tr("Probabilities chart"));
    auto* chartForm = new QFormLayout(chartBox);
    chartForm->addRow(tr("&Bars (top N, then the rest):"), m_bars);

    auto* panel = new QWidget;
    auto* layout = new QVBoxLayout(panel);
    layout->addWidget(presets);
    layout->addWidget(sampler);
    layout->addWidget(m_drawPanel);
    layout->addWidget(chartBox);
    layout->addWidget(vocabulary);
    layout->addStretch();
    auto* scroll = new QScrollArea;
    scroll->setObjectName(QLatin1String(kPageControls));
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

    // Short names: the seven buttons wrap to two lines, not three, at 200% on 1024 px.
    auto* add = new QPushButton(tr("&Add"));
    add->setToolTip(tr("Adds a token below the least likely one."));
    connect(add, &QPushButton::clicked, this, &ExplorerPage::addToken);
    auto* remove = new QPushButton(tr("&Remove"));
    remove->setToolTip(tr("Removes the selected tokens (Delete)."));
    connect(remove, &QPushButton::clicked, this, &ExplorerPage::removeSelectedTokens);
    auto* pasteButton = new QPushButton(tr("Pa&ste"));
    pasteButton->setToolTip(tr("Replaces the table with token/logit rows from the clipboard (two columns from a "
                               "spreadsheet, or one column of logits)."));
    connect(pasteButton, &QPushButton::clicked, this, [this] { pasteText(QApplication::clipboard()->text()); });
    auto* open = new QPushButton(tr("&Open..."));
    open->setToolTip(tr("Reads a CSV (token,logit) or text file (one logit per line), or a model's dump: NumPy "
                        ".npy/.npz or safetensors, with its tokenizer's vocabulary (docs/import.md)."));
    connect(open, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open logits"), QString(),
                                         tr("Logits (*.csv *.txt *.tsv *.npy *.npz *.safetensors);;All files (*)"));
        if (!path.isEmpty())
            openLogitsFile(path);
    });
    // A GGUF model: type a prompt, see the next-token distribution (after a pause in the typing).
    m_modelRow = new QWidget;
    m_modelPath = new QLineEdit;
    m_modelPath->setPlaceholderText(tr("model .gguf"));
    m_modelPath->setToolTip(tr("A GGUF model (llama, qwen2, gpt2) run on the CPU."));
    m_modelPrompt = new QLineEdit;
    m_modelPrompt->setPlaceholderText(tr("prompt: the table becomes the next token's distribution"));
    m_modelPrompt->setToolTip(tr("The text the model reads (its tokenizer, BOS as it adds it); the table shows the "
                                 "logits of the next token, under the chain on the left."));
    m_modelTyping = new QTimer(this);
    m_modelTyping->setSingleShot(true);
    m_modelTyping->setInterval(400);
    const auto runModel = [this] {
        m_modelTyping->stop();
        if (!m_modelPath->text().trimmed().isEmpty() && !m_modelPrompt->text().isEmpty())
            m_edits->openModelPrompt(m_modelPath->text().trimmed(), m_modelPrompt->text());
    };
    connect(m_modelTyping, &QTimer::timeout, this, runModel);
    connect(m_modelPrompt, &QLineEdit::returnPressed, this, runModel);
    for (QLineEdit* field : {m_modelPath, m_modelPrompt})
        connect(field, &QLineEdit::textEdited, m_modelTyping, qOverload<>(&QTimer::start));
    auto* browseModel = new QPushButton(tr("Browse…"));
    connect(browseModel, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("GGUF model"), QString(), tr("GGUF models (*.gguf);;All files (*)"));
        if (path.isEmpty())
            return;
        m_modelPath->setText(path);
        m_modelTyping->start();
    });
    auto* modelLayout = new QHBoxLayout(m_modelRow);
    modelLayout->setContentsMargins(0, 0, 0, 0);
    modelLayout->addWidget(new QLabel(tr("Model")));
    modelLayout->addWidget(m_modelPath, 1);
    modelLayout->addWidget(browseModel);
    modelLayout->addWidget(m_modelPrompt, 2);
    m_modelRow->hide();
    auto* modelButton = new QPushButton(tr("&Model…"));
    modelButton->setToolTip(tr("A GGUF model's next-token distribution after a prompt you type."));
    connect(modelButton, &QPushButton::clicked, this, [this] {
        m_modelRow->setVisible(!m_modelRow->isVisible());
        if (m_modelRow->isVisible())
            (m_modelPath->text().isEmpty() ? m_modelPath : m_modelPrompt)->setFocus();
    });
    m_loadButtons << pasteButton << open;
    auto* junk = new QPushButton(tr("&Junk risk…"));
    junk->setObjectName(QStringLiteral("junkRiskButton"));
    junk->setToolTip(tr("Opens the junk-token risk page on this table's logits: how often a reply of N tokens "
                        "picks at least one junk token."));
    connect(junk, &QPushButton::clicked, this,
            [this] { emit distributionOffered(app::junkRiskKind().id(), m_model->distribution()); });
    auto* sweep = new QPushButton(tr("Seed s&weep…"));
    sweep->setObjectName(QStringLiteral("seedSweepButton"));
    sweep->setToolTip(tr("Opens the seed-sweep page on this table's logits: do many seeds draw what the sampler "
                         "claims, and does each seed replay?"));
    connect(sweep, &QPushButton::clicked, this,
            [this] { emit distributionOffered(app::seedSweepKind().id(), m_model->distribution()); });
    // The table's edits, then the hand-offs, wrapping: one row of seven buttons did not fit
    // 1024 px at 200% zoom.
    auto* buttons = new QWidget;
    auto* buttonFlow = new FlowLayout(buttons);
    for (QPushButton* b : {add, remove, pasteButton, open, modelButton, junk, sweep})
        buttonFlow->addWidget(b);

    m_readouts->setToolTip(tr("Measures of the distribution at this temperature, and what the filters did."));

    auto* tableColumn = new QVBoxLayout;
    tableColumn->addWidget(m_table, 1);
    tableColumn->addWidget(buttons);
    tableColumn->addWidget(m_modelRow);
    tableColumn->addWidget(m_error);
    auto* panel = new QWidget;
    panel->setLayout(tableColumn);
    tableColumn->setContentsMargins(0, 0, 0, 0);
    return panel;
}

QString ExplorerPage::title() const { return tr("Explorer"); }

QChart* ExplorerPage::chart() const
{
    switch (m_tabs->currentIndex()) {
    case SweepTab:
        return m_sweep->chart();
    case DrawsTab:
        return m_draws->chart();
    case CompareTab:
        return m_compare->chart();
    default:
        return m_chart->chart();
    }
}

QAbstractItemModel* ExplorerPage::resultsModel() const { return m_model; }

std::optional<app::ResultTable> ExplorerPage::resultTable() const
{
    // Shares the immutable table; the analysis is copied once per export.
    return app::explorerTokenTable(m_model->table(),
                                   std::make_shared<const engine::SamplerAnalysis>(m_model->analysis()));
}

QDoubleSpinBox* ExplorerPage::temperatureBox() const { return m_controls->temperatureBox(); }

QSpinBox* ExplorerPage::topKBox() const { return m_controls->topKBox(); }

QDoubleSpinBox* ExplorerPage::topPBox() const { return m_controls->topPBox(); }

app::ExplorerState ExplorerPage::state() const
{
    app::ExplorerState state;
    state.distribution = m_model->distribution();
    state.chain = m_model->chain();
    state.rng = m_drawPanel->rng();
    state.seed = m_drawPanel->seed();
    state.draws = m_drawPanel->count();
    state.bars = m_bars->value();
    return state;
}

QWidget* ExplorerPage::createPresentation() { return new ExplorerPresentation(this); }

QString ExplorerPage::openModel(const QString& path)
{
    const QFileInfo info(path);
    if (!info.isFile())
        return tr("%1: no such file").arg(path);
    m_modelRow->show();
    m_modelPath->setText(info.absoluteFilePath());
    m_modelTyping->stop();
    if (m_modelPrompt->text().isEmpty())
        m_modelPrompt->setFocus();
    else
        m_edits->openModelPrompt(m_modelPath->text(), m_modelPrompt->text());
    return {};
}

bool ExplorerPage::acceptDistribution(const HandOff& handOff)
{
    m_edits->useDistribution(handOff.distribution, tr("a distribution from another page"), handOff.chain);
    if (!handOff.note.isEmpty())
        emit statusMessage(handOff.note);
    return true;
}

app::Provenance ExplorerPage::provenance() const
{
    return app::explorerProvenance(state(), m_controls->chainText(), m_edits->source());
}

void ExplorerPage::cancel()
{
    m_views->cancel();
    m_edits->dropLoad(tr("Loading cancelled: the table is unchanged."));
}

void ExplorerPage::reset()
{
    applyPreset(0);
    m_bars->setValue(app::ExplorerState::kDefaultBars);
}

bool ExplorerPage::isModified() const { return !m_undo->isClean(); }

void ExplorerPage::markSaved()
{
    m_savedWhenLoaded = loading();
    m_undo->setClean();
}

void ExplorerPage::applyPreset(int index) { m_edits->applyPreset(index); }

void ExplorerPage::generateVocabulary(const engine::SyntheticSpec& spec) { m_edits->generateVocabulary(spec); }

void ExplorerPage::chooseStep(const QString& path, const QString& array, const QList<QList<double>>& entropy,
                              const QString& what, bool batched)
{
    if (m_sayDefault) {
        m_sayDefault(tr("%1: step 0%2 of %L3 loaded without asking (no dialog in a headless run)")
                         .arg(what, batched ? tr(" of batch 0") : QString())
                         .arg(entropy.value(0).size()));
        app::LogitsFileRequest request;
        request.array = array;
        request.row.step = 0;
        if (batched)
            request.row.batch = 0;
        request.vocabulary = m_lastVocabulary;
        m_edits->openLogitsRow(path, request);
        return;
    }
    StepPickerDialog dialog(what, entropy, m_lastVocabulary, this);
    if (dialog.exec() != QDialog::Accepted) {
        emit statusMessage(tr("Open cancelled: the table is unchanged."));
        return;
    }
    m_lastVocabulary = dialog.vocabulary();
    app::LogitsFileRequest request;
    request.array = array;
    request.row.step = dialog.step();
    if (batched)
        request.row.batch = dialog.batch();
    request.vocabulary = m_lastVocabulary;
    m_edits->openLogitsRow(path, request);
}

QString ExplorerPage::openLogitsFile(const QString& path) { return m_edits->openLogitsFile(path); }

void ExplorerPage::pasteText(const QString& text) { m_edits->pasteText(text); }

bool ExplorerPage::loading() const { return m_edits->loading(); }

void ExplorerPage::addToken() { m_edits->addToken(); }

void ExplorerPage::removeSelectedTokens()
{
    std::vector<int> rows;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows())
        rows.push_back(m_proxy->mapToSource(index).row());
    m_edits->removeTokens(std::move(rows));
}

void ExplorerPage::startDraws() { m_views->startDraws(); }

void ExplorerPage::showChart(ChartTab tab) { m_tabs->setCurrentIndex(tab); }

bool ExplorerPage::sweepRunning() const { return m_views->sweepRunning(); }

bool ExplorerPage::compareRunning() const { return m_views->compareRunning(); }

bool ExplorerPage::drawsRunning() const { return m_views->drawsRunning(); }

const engine::DrawCounts& ExplorerPage::lastDraws() const { return m_views->lastDraws(); }

void ExplorerPage::resultsChanged()
{
    updateReadouts();
    m_views->resultsChanged(m_tabs->currentIndex() == CompareTab, m_tabs->currentIndex() == DrawsTab);
}

QStringList ExplorerPage::readoutLines() const
{
    const auto& a = m_model->analysis();
    const auto n = m_model->rowCount();
    QStringList lines{
        tr("Survivors: %L1 of %L2").arg(a.survivors.size()).arg(n),
        tr("Mass removed by the filters: %1").arg(QString::number(a.massRemoved, 'f', 4)),
        tr("Cut: %1").arg(m_model->cutDescription()),
        tr("Entropy at T: %1 nats = %2 bits")
            .arg(QString::number(a.entropyNats, 'f', 3), QString::number(a.entropyBits, 'f', 3)),
        tr("Perplexity (effective vocabulary): %1").arg(QString::number(a.perplexity, 'f', 2)),
        tr("P(draw outside the top 1): %1").arg(QString::number(a.outsideTop1, 'f', 4)),
    };
    // Tokens whose fate hangs on rounding or on the tie rule (docs/semantics.md).
    for (const std::string& mark : a.cutMarks)
        lines << QStringLiteral("\u26a0 ") + QString::fromStdString(mark);
    return lines;
}

QString ExplorerPage::readoutText() const { return m_readouts->text(); }

void ExplorerPage::updateReadouts() { m_readouts->setReadouts(readoutLines(), m_model->settings().temperature == 0.0); }

QString ExplorerPage::saveExperiment(const QString& path)
{
    NumericEntry::commitTyped();  // Ctrl+S in a box: the value it shows is saved
    return app::saveBytes(path, app::explorerStateToJson(state()));
}

QString ExplorerPage::openExperiment(const QString& path)
{
    if (QFileInfo(path).suffix().toLower() != QLatin1String("json"))
        return openLogitsFile(path);  // a plain logits file
    return m_edits->openStateFile(path);
}

void ExplorerPage::showError(const QString& raw)
{
    const QString message = app::oneLineText(raw);  // it may quote a file's bytes
    m_error->setText(message);
    m_error->show();
    emit statusMessage(message);
}

void ExplorerPage::clearError() { m_error->hide(); }

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

QString ExplorerPage::id() const { return app::explorerKind().id(); }

}  // namespace logitlab::ui
