#include "summation_page.h"

#include "experiment_runner.h"
#include "result_table_model.h"
#include "summation_charts.h"
#include "summation_lesson.h"
#include "summation_methods.h"
#include "summation_terms.h"

#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QShowEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <limits>

namespace logitlab::ui {

namespace {

using engine::Error;

// The distribution choices in the combo box, in its order.
enum TermsChoice { Normal, Uniform, Cauchy, Mixed, Pasted, FromFile };
const char* const kDistributionNames[] = {"normal", "uniform", "cauchy", "mixed"};

const int kSpreadChoices[] = {0, 1000, 10000, 100000, 1000000, 10000000};

QLocale groupingLocale()
{
    QLocale locale;
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    return locale;
}

// The page's starting point: 10,000 float32 normal terms, all orders, 1,000 shuffles, the
// spread up to a million terms (a few seconds).
app::SummationSpec startSpec()
{
    app::SummationSpec spec;
    spec.name = QStringLiteral("summation-order");
    spec.spreadMaxN = 1000000;
    spec.spreadTerms = 20000000;
    return spec;
}

// The lesson's examples as an HTML table: expression, value, bits, and why.
QString lessonExamplesHtml()
{
    QString rows;
    for (const engine::LessonSum& s : engine::lessonSums())
        rows += QStringLiteral("<tr><td><code>%1</code></td><td>&nbsp;= <b>%2</b></td><td>&nbsp;<code>%3</code></td></tr>"
                               "<tr><td colspan=3 style='color:#555'>%4</td></tr>")
                    .arg(QString::fromStdString(s.expression).toHtmlEscaped(), QString::fromStdString(s.shortest),
                         QString::fromStdString(s.bits), QString::fromStdString(s.explanation).toHtmlEscaped());
    return SummationPage::tr("<b>The lesson, in float64:</b> the same numbers added in another order give another "
                             "result.<table cellspacing=4>%1</table>")
        .arg(rows);
}

QString pastedText(const QList<double>& values)
{
    QStringList lines;
    for (double v : values)
        lines << QString::number(v, 'g', 17);
    return lines.join(QLatin1Char('\n'));
}

}  // namespace

SummationPage::SummationPage(QWidget* parent)
    : ExperimentPage(parent),
      m_runs(new app::RunController<app::SummationOutcome>(app::RunControllerBase::Mode::Supersede, this)),
      m_charts(new SummationCharts(this)), m_model(new ResultTableModel(this)), m_distribution(new QComboBox),
      m_n(new QSpinBox), m_scale(new QDoubleSpinBox), m_pasted(new QPlainTextEdit), m_file(new QLineEdit),
      m_storage(new QComboBox), m_accumulator(new QComboBox), m_shuffles(new QSpinBox), m_seed(new QSpinBox),
      m_split(new QSpinBox), m_lanes(new QComboBox), m_threads(new QSpinBox), m_spread(new QComboBox),
      m_workers(new QSpinBox), m_lesson(new QLabel), m_summary(new QLabel), m_chartTabs(new QTabWidget),
      m_tableTabs(new QTabBar), m_table(new QTableView)
{
    setExperimentRuns(m_runs);
    m_distribution->addItems({tr("normal"), tr("uniform [0, 1)"), tr("heavy-tailed (Cauchy)"), tr("mixed magnitudes"),
                              tr("pasted list"), tr("file, one number per line")});
    m_distribution->setToolTip(tr("Where the terms come from: drawn from a seeded distribution, pasted, or read from a file."));
    m_n->setRange(1, static_cast<int>(engine::SummationParameters::kMaxTerms));
    m_n->setGroupSeparatorShown(true);
    m_n->setSingleStep(1000);
    m_n->setToolTip(tr("N, the number of terms drawn."));
    m_scale->setRange(1e-6, 1e6);
    m_scale->setDecimals(6);
    m_scale->setToolTip(tr("Every drawn term is multiplied by this."));
    m_pasted->setPlaceholderText(tr("numbers, one per line or comma-separated"));
    m_pasted->setMaximumHeight(70);
    m_file->setPlaceholderText(tr("terms.txt, relative to the experiment file"));
    auto* browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Terms file"), baseDir());
        if (!path.isEmpty())
            m_file->setText(path);
    });
    for (const auto& name : engine::floatFormatNames()) {
        m_storage->addItem(QString::fromStdString(name));
        m_accumulator->addItem(QString::fromStdString(name));
    }
    m_storage->setToolTip(tr("The format the terms are stored in: each is rounded to it (to nearest, ties to even)."));
    m_accumulator->setToolTip(tr("The format the sum is kept in: every addition is rounded to it. bf16 terms are "
                                 "usually summed in float32."));
    auto* methodGrid = new QGridLayout;
    methodGrid->setContentsMargins(0, 0, 0, 0);
    methodGrid->setVerticalSpacing(0);
    const auto methods = engine::allSumMethods();
    for (std::size_t i = 0; i < methods.size(); ++i) {
        auto* box = new QCheckBox(QString::fromStdString(std::string(engine::sumMethodName(methods[i]))));
        box->setToolTip(QString::fromStdString(engine::describeSumMethod(methods[i], 4, 8, 4)));
        box->setChecked(true);
        m_methods << box;
        methodGrid->addWidget(box, static_cast<int>(i) / 3, static_cast<int>(i) % 3);
    }
    m_shuffles->setRange(0, static_cast<int>(engine::SummationParameters::kMaxShuffles));
    m_shuffles->setGroupSeparatorShown(true);
    m_shuffles->setSingleStep(100);
    m_shuffles->setToolTip(tr("K random orders, each from its own seeded stream."));
    m_seed->setRange(0, std::numeric_limits<int>::max());
    m_split->setRange(1, engine::SummationParameters::kMaxSplit);
    m_split->setToolTip(tr("Blocked / split-K: the terms in this many contiguous splits, partial sums added in order."));
    for (int lanes = 1; lanes <= engine::SummationParameters::kMaxLanes; lanes *= 2)
        m_lanes->addItem(QString::number(lanes), lanes);
    m_lanes->setToolTip(tr("SIMD: this many lanes each sum every L-th term, then the lanes are halved pairwise."));
    m_threads->setRange(1, engine::SummationParameters::kMaxThreads);
    m_threads->setToolTip(tr("Threads: each of this many threads sums its contiguous chunk; partials are added in "
                             "thread order. This is the order being studied, not how fast the page runs."));
    m_spread->addItem(tr("none"), 0);
    for (int i = 1; i < 6; ++i)
        m_spread->addItem(tr("N = 100 … %1").arg(groupingLocale().toString(kSpreadChoices[i])), kSpreadChoices[i]);
    m_spread->setToolTip(tr("How the random orders' spread grows with N: fresh terms at N = 100, 1,000, …, with "
                            "fewer shuffles for larger N so the chart takes seconds."));
    m_workers->setRange(1, 256);
    m_workers->setValue(app::defaultThreadCount());
    m_workers->setToolTip(tr("Worker threads of this computer. Changes the speed, never the numbers."));

    m_form = new QFormLayout;
    auto* form = m_form;
    form->addRow(tr("Terms"), m_distribution);
    form->addRow(tr("N"), m_n);
    form->addRow(tr("Scale"), m_scale);
    form->addRow(tr("Pasted"), m_pasted);
    m_fileRow = new QHBoxLayout;
    m_fileRow->addWidget(m_file, 1);
    m_fileRow->addWidget(browse);
    form->addRow(tr("File"), m_fileRow);
    auto* formats = new QHBoxLayout;
    formats->addWidget(m_storage);
    formats->addWidget(new QLabel(tr("summed in")));
    formats->addWidget(m_accumulator);
    form->addRow(tr("Stored as"), formats);
    form->addRow(tr("Orders"), methodGrid);
    form->addRow(tr("Shuffles K"), m_shuffles);
    form->addRow(tr("Seed"), m_seed);
    auto* shape = new QHBoxLayout;
    shape->addWidget(new QLabel(tr("split")));
    shape->addWidget(m_split);
    shape->addWidget(new QLabel(tr("lanes")));
    shape->addWidget(m_lanes);
    shape->addWidget(new QLabel(tr("threads")));
    shape->addWidget(m_threads);
    form->addRow(tr("Shape"), shape);
    form->addRow(tr("Spread"), m_spread);
    form->addRow(tr("Workers"), m_workers);
    auto* buttons = new QHBoxLayout;
    for (QPushButton* b : {openButton(), saveButton(), runButton(), cancelButton()})
        buttons->addWidget(b);
    auto* controls = new QVBoxLayout;
    controls->addLayout(form);
    controls->addLayout(buttons);
    controls->addWidget(errorLabel());
    controls->addStretch();
    auto* controlBox = new QGroupBox(tr("Experiment"));
    controlBox->setLayout(controls);
    // Small screens (1024x768 with a zoomed font) scroll the controls rather than squeeze them.
    auto* controlScroll = new QScrollArea;
    controlScroll->setWidget(controlBox);
    controlScroll->setWidgetResizable(true);
    controlScroll->setFrameShape(QFrame::NoFrame);
    controlScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    controlScroll->setMinimumWidth(controlBox->sizeHint().width() + 20);

    m_lesson->setTextFormat(Qt::RichText);
    m_lesson->setWordWrap(true);
    m_lesson->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_lesson->setText(lessonExamplesHtml());
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setText(tr("Run to sum the terms in every order."));

    const auto view = [](QChart* chart) {
        auto* v = new QChartView(chart);  // takes ownership of the QChart
        v->setRenderHint(QPainter::Antialiasing);
        v->setMinimumHeight(240);
        return v;
    };
    // The lesson's examples on a tab of their own, large enough to read from the back of a room.
    auto* lessonPane = new QScrollArea;
    lessonPane->setWidget(m_lesson);
    lessonPane->setWidgetResizable(true);
    lessonPane->setFrameShape(QFrame::NoFrame);
    QFont lessonFont = m_lesson->font();
    lessonFont.setPointSizeF(lessonFont.pointSizeF() * 1.25);
    m_lesson->setFont(lessonFont);
    m_lesson->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_lesson->setContentsMargins(12, 12, 12, 12);
    m_chartTabs->addTab(lessonPane, tr("Lesson"));
    m_chartTabs->addTab(view(m_charts->errors()), tr("Errors"));
    m_chartTabs->addTab(view(m_charts->histogram()), tr("Random orders"));
    m_chartTabs->addTab(view(m_charts->spread()), tr("Spread vs N"));

    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(ResultTableModel::SortRole);
    m_table->setModel(proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->verticalHeader()->hide();
    m_tableTabs->setExpanding(false);
    connect(m_tableTabs, &QTabBar::currentChanged, this, &SummationPage::showTable);
    auto* tablePane = new QWidget;
    auto* tableLayout = new QVBoxLayout(tablePane);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->setSpacing(0);
    tableLayout->addWidget(m_tableTabs);
    tableLayout->addWidget(m_table, 1);
    tablePane->setMinimumHeight(150);  // a few rows always readable under the chart

    auto* top = new QWidget;
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(staleLabel());
    topLayout->addWidget(m_summary);
    topLayout->addWidget(m_chartTabs, 1);
    auto* results = new QSplitter(Qt::Vertical);
    results->addWidget(top);
    results->addWidget(tablePane);
    results->setStretchFactor(0, 3);
    results->setStretchFactor(1, 1);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(controlScroll);
    split->addWidget(results);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    m_chartTabs->setCurrentIndex(1);  // the errors, once the first run lands; the lesson is one click away
    connect(m_distribution, &QComboBox::currentIndexChanged, this, &SummationPage::runStateChanged);
    watchControls(controlBox, {m_workers});
    setSpec(startSpec(), QString());
    markSaved();
}

QString SummationPage::title() const
{
    return tr("Summation order");
}

QChart* SummationPage::chart() const
{
    // Tab 0 is the lesson's text: File > Export chart exports the errors there.
    switch (m_chartTabs->currentIndex()) {
    case 2:
        return m_charts->histogram();
    case 3:
        return m_charts->spread();
    default:
        return m_charts->errors();
    }
}

QAbstractItemModel* SummationPage::resultsModel() const
{
    return m_model;
}

std::optional<app::ResultTable> SummationPage::resultTable() const
{
    return m_model->table();
}

app::Provenance SummationPage::provenance() const
{
    if (m_hasResults)
        return app::summationProvenance(m_resultSpec, baseDir());
    const auto spec = specFromControls();
    return app::summationProvenance(spec.ok() ? spec.value() : startSpec(), baseDir());
}

void SummationPage::reset()
{
    setSpec(startSpec(), QString());
}

void SummationPage::setSpec(const app::SummationSpec& spec, const QString& baseDir)
{
    setBaseDir(baseDir);
    int choice = Normal;
    if (spec.distribution == QLatin1String("list"))
        choice = spec.file.isEmpty() ? Pasted : FromFile;
    else
        for (int i = 0; i < 4; ++i)
            if (spec.distribution == QLatin1String(kDistributionNames[i]))
                choice = i;
    m_distribution->setCurrentIndex(choice);
    m_n->setValue(static_cast<int>(spec.n));
    m_scale->setValue(spec.scale);
    m_pasted->setPlainText(pastedText(spec.values));
    m_file->setText(spec.file);
    m_storage->setCurrentText(spec.storage);
    m_accumulator->setCurrentText(spec.accumulator);
    for (QCheckBox* box : m_methods)
        box->setChecked(spec.methods.contains(box->text()));
    m_shuffles->setValue(static_cast<int>(spec.shuffles));
    m_seed->setValue(static_cast<int>(std::min<qint64>(spec.seed, m_seed->maximum())));
    m_split->setValue(spec.split);
    m_lanes->setCurrentIndex(std::max(0, m_lanes->findData(spec.lanes)));
    m_threads->setValue(spec.threads);
    m_spread->setCurrentIndex(std::max(0, m_spread->findData(static_cast<int>(spec.spreadMaxN))));
    m_loaded = spec;
    runStateChanged();
}

engine::Result<app::SummationSpec> SummationPage::specFromControls() const
{
    app::SummationSpec spec = m_loaded;
    const int choice = m_distribution->currentIndex();
    spec.values.clear();
    spec.file.clear();
    if (choice == Pasted) {
        const auto terms = engine::parseTermsText(m_pasted->toPlainText().toStdString(), tr("Pasted").toStdString());
        if (!terms)
            return Error{terms.error()};
        spec.distribution = QStringLiteral("list");
        spec.values = QList<double>(terms->begin(), terms->end());
    } else if (choice == FromFile) {
        spec.distribution = QStringLiteral("list");
        spec.file = m_file->text().trimmed();
        if (spec.file.isEmpty())
            return Error{tr("File: name a file of terms, one number per line").toStdString()};
    } else {
        spec.distribution = QString::fromLatin1(kDistributionNames[choice]);
        spec.n = m_n->value();
        spec.scale = m_scale->value();
    }
    spec.storage = m_storage->currentText();
    spec.accumulator = m_accumulator->currentText();
    spec.methods.clear();
    for (QCheckBox* box : m_methods)
        if (box->isChecked())
            spec.methods << box->text();
    spec.shuffles = m_shuffles->value();
    spec.seed = m_seed->value();
    spec.split = m_split->value();
    spec.lanes = m_lanes->currentData().toInt();
    spec.threads = m_threads->value();
    spec.spreadMaxN = m_spread->currentData().toInt();
    // The file format's own checks, so the page and the CLI accept the same experiments.
    auto checked = app::parseSummation(app::toJson(spec), tr("page"));
    if (!checked)
        return Error{checked.error()};
    return checked.value();
}

QString SummationPage::readExperimentFile(const QString& path)
{
    const auto spec = app::readSummationFile(path);
    if (!spec)
        return QString::fromStdString(spec.error());
    setSpec(spec.value(), QFileInfo(path).absolutePath());
    return {};
}

QString SummationPage::writeExperimentFile(const QString& path)
{
    const auto spec = specFromControls();
    return spec.ok() ? app::writeSummationFile(path, spec.value()) : QString::fromStdString(spec.error());
}

void SummationPage::run()
{
    const auto spec = specFromControls();
    if (!spec) {
        showError(QString::fromStdString(spec.error()));
        return;
    }
    startRun<app::SummationOutcome>(
        *m_runs, tr("Summing in every order…"),
        [spec = spec.value(), dir = baseDir(), source = tr("page"), threads = m_workers->value()](
            const app::WorkControl& control) { return app::runSummation(spec, dir, source, threads, control); },
        [this, spec = spec.value()](app::SummationOutcome& outcome) { showResults(spec, outcome); });
}

void SummationPage::showResults(const app::SummationSpec& spec, const app::SummationOutcome& outcome)
{
    m_resultSpec = spec;
    m_hasResults = true;
    const auto& s = outcome.summary;
    m_charts->setSummary(s, spec.storage, spec.accumulator);
    const QLocale locale = groupingLocale();
    m_summary->setText(tr("<b>%1 terms</b> (%2, summed in %3): exact sum <b>%4</b> <code>%5</code>. "
                          "<b>%6</b> different results over %7 random orders, %8 over every order.")
                           .arg(locale.toString(static_cast<qlonglong>(s.terms)), spec.storage, spec.accumulator,
                                QString::number(s.exact, 'g', 17), QString::fromStdString(s.exactBits),
                                locale.toString(static_cast<qlonglong>(s.distinctShuffles)),
                                locale.toString(static_cast<qlonglong>(s.shuffles.size())),
                                locale.toString(static_cast<qlonglong>(s.distinctAll))));
    m_tables = app::summationTables(outcome);
    const int current = std::max(0, m_tableTabs->currentIndex());
    {
        const QSignalBlocker block(m_tableTabs);
        while (m_tableTabs->count() > 0)
            m_tableTabs->removeTab(0);
        for (const auto& table : m_tables)
            m_tableTabs->addTab(table.title);
        m_tableTabs->setCurrentIndex(std::min(current, m_tableTabs->count() - 1));
    }
    showTable(m_tableTabs->currentIndex());
    resultsShownFor(app::toJson(spec));
}

void SummationPage::showTable(int index)
{
    if (index >= 0 && index < static_cast<int>(m_tables.size()))
        m_model->setTable(m_tables[static_cast<std::size_t>(index)]);
}

QJsonObject SummationPage::controlsJson() const
{
    const auto spec = specFromControls();
    return spec.ok() ? app::toJson(spec.value()) : QJsonObject();
}

void SummationPage::showEvent(QShowEvent* event)
{
    ExperimentPage::showEvent(event);
    // Never a blank pane: the first time the page is on screen without results, run what the
    // controls describe (at the start, under a second).
    if (m_shownOnce)
        return;
    m_shownOnce = true;
    if (!m_hasResults && !isRunning())
        run();
}

void SummationPage::runStateChanged()
{
    if (!m_form)  // not laid out yet
        return;
    const int choice = m_distribution->currentIndex();
    const bool drawn = choice < Pasted;
    m_n->setEnabled(drawn);
    m_scale->setEnabled(drawn);
    m_spread->setEnabled(drawn);
    // Only the rows of the chosen source are shown: no disabled boxes taking room.
    m_form->setRowVisible(m_n, drawn);
    m_form->setRowVisible(m_scale, drawn);
    m_form->setRowVisible(m_pasted, choice == Pasted);
    m_form->setRowVisible(m_fileRow, choice == FromFile);
    m_form->setRowVisible(m_spread, drawn);
}

}  // namespace logitlab::ui
