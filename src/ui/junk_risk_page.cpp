#include "junk_risk_page.h"

#include "experiment_runner.h"
#include "junk_risk_chart.h"
#include "logits_array.h"
#include "logits_file.h"
#include "loop_spec.h"
#include "reply_junk_risk_chart.h"
#include "step_range.h"
#include "word_tokens.h"
#include "result_table_model.h"
#include "setting_lines.h"
#include "logits_parser.h"
#include "rng_factory.h"

#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace logitlab::ui {

namespace {

using engine::Error;

enum DistributionChoice { FromFile, Zipf, Normal, QPerToken };

// Numbers with digit grouping whatever the locale's default (the C locale omits it): 20,000
// replies and N = 2,000 must read at a glance from the back of a room.
QLocale groupingLocale()
{
    QLocale locale;
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    return locale;
}

// q as typed: a probability in [0, 1]; NaN, infinities and anything else are refused.
engine::Result<double> parseQ(const QString& text)
{
    bool ok = false;
    const double q = text.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(q) || q < 0.0 || q > 1.0)
        return Error{JunkRiskPage::tr("q per token: '%1' is not a probability in [0, 1]").arg(text.trimmed()).toStdString()};
    return q;
}

// The lesson's case, the page's starting point: banana holds 0.4% at every step.
app::JunkRiskSpec lessonSpec()
{
    app::JunkRiskSpec spec;
    spec.name = QStringLiteral("junk-risk-lesson");
    spec.distribution.kind = app::DistributionSpec::Kind::Probabilities;
    spec.distribution.values = {0.577, 0.212, 0.129, 0.078, 0.004};
    spec.distribution.tokens = {QStringLiteral("users"), QStringLiteral("data"), QStringLiteral("items"),
                                QStringLiteral("result"), QStringLiteral("banana")};
    spec.junk = {engine::JunkDefinition::Kind::Ids, 0.01, {4}};
    spec.settings = {{QStringLiteral("plain T=1"), {1.0, {}, {}}}, {QStringLiteral("top-p 0.9"), {1.0, {}, 0.9}}};
    spec.lengths.list = {1, 2, 5, 10, 20, 50, 100, 200, 300, 500, 1000, 2000};
    spec.replies = 20000;
    return spec;
}

QString describeLoaded(const app::DistributionSpec& d)
{
    using Kind = app::DistributionSpec::Kind;
    switch (d.kind) {
    case Kind::Logits:
        return JunkRiskPage::tr("as in the file: %1 logits").arg(d.values.size());
    case Kind::Probabilities:
        return JunkRiskPage::tr("as in the file: %1 probabilities").arg(d.values.size());
    case Kind::File:
        return JunkRiskPage::tr("as in the file: %1").arg(d.path);
    case Kind::Zipf:
    case Kind::Normal:
    case Kind::QPerToken:
        break;
    }
    return JunkRiskPage::tr("as in the file");
}

// "1,10,300", "1..2000 log 30" or "10..1000 step 10".
QString lengthsText(const app::LengthSpec& l)
{
    if (!l.isRange) {
        QStringList items;
        for (qint64 n : l.list)
            items << QString::number(n);
        return items.join(QLatin1Char(','));
    }
    return l.logSpacing ? QStringLiteral("%1..%2 log %3").arg(l.from).arg(l.to).arg(l.points)
                        : QStringLiteral("%1..%2 step %3").arg(l.from).arg(l.to).arg(l.step);
}

engine::Result<app::LengthSpec> parseLengthsText(const QString& text)
{
    const qint64 max = engine::JunkRiskExperiment::kMaxLength;
    const auto fail = [](const QString& why) { return Error{JunkRiskPage::tr("Lengths: %1").arg(why).toStdString()}; };
    app::LengthSpec l;
    static const QRegularExpression range(
        QStringLiteral("^\\s*(\\d+)\\s*\\.\\.\\s*(\\d+)\\s*(?:(log|step)\\s+(\\d+))?\\s*$"));
    const auto m = range.match(text);
    if (m.hasMatch()) {
        l.isRange = true;
        l.from = m.captured(1).toLongLong();
        l.to = m.captured(2).toLongLong();
        l.logSpacing = m.captured(3) == QLatin1String("log");
        if (l.logSpacing)
            l.points = m.captured(4).toLongLong();
        else if (!m.captured(4).isEmpty())
            l.step = m.captured(4).toLongLong();
        if (l.from < 1 || l.to > max || l.to < l.from)
            return fail(JunkRiskPage::tr("the range must lie in 1..%1, from <= to").arg(max));
        if ((l.logSpacing && (l.points < 2 || l.points > app::kMaxLengths)) || l.step < 1 ||
            (!l.logSpacing && (l.to - l.from) / l.step + 1 > app::kMaxLengths))
            return fail(
                JunkRiskPage::tr("2..%1 points, a step of at least 1, at most %1 lengths").arg(app::kMaxLengths));
        return l;
    }
    for (const QString& item : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const qint64 n = item.trimmed().toLongLong(&ok);
        if (!ok || n < 1 || n > max)
            return fail(JunkRiskPage::tr("'%1' is not a length in 1..%2").arg(item.trimmed()).arg(max));
        if (!l.list.isEmpty() && n <= l.list.back())
            return fail(JunkRiskPage::tr("list them ascending, without repeats"));
        l.list << n;
    }
    if (l.list.isEmpty() || l.list.size() > app::kMaxLengths)
        return fail(JunkRiskPage::tr("a list like 1,10,300 or a range like 1..2000 log 30"));
    return l;
}

// "all", "3..-1" or "5" (from step 5 to the end): the file's "steps" key as typed.
engine::Result<app::StepRange> parseStepRangeText(const QString& text)
{
    const QString t = text.trimmed();
    if (t.isEmpty() || t == QLatin1String("all"))
        return app::StepRange{};
    static const QRegularExpression range(QStringLiteral("^(-?\\d+)\\s*(?:\\.\\.\\s*(-?\\d+))?$"));
    const auto m = range.match(t);
    if (!m.hasMatch())
        return Error{JunkRiskPage::tr("Steps: '%1' is not \"all\", FROM..TO or FROM (negative counts from the end)")
                         .arg(t)
                         .toStdString()};
    app::StepRange r;
    r.from = m.captured(1).toLongLong();
    r.to = m.captured(2).isEmpty() ? -1 : m.captured(2).toLongLong();
    return r;
}

QString stepRangeText(const app::StepRange& r)
{
    return r.isAll() ? QStringLiteral("all") : QStringLiteral("%1..%2").arg(r.from).arg(r.to);
}

} // namespace

JunkRiskPage::JunkRiskPage(QWidget* parent)
    : ExperimentPage(parent), m_model(new ResultTableModel(this)), m_chart(new JunkRiskChart(this)),
      m_runs(new app::RunController<app::JunkRiskOutcome>(app::RunControllerBase::Mode::Supersede, this)),
      m_replyChart(new ReplyJunkRiskChart(this)), m_charts(new QStackedWidget), m_mode(new QComboBox),
      m_stepsFile(new QLineEdit), m_stepRange(new QLineEdit), m_prompt(new QLineEdit), m_replyLength(new QSpinBox),
      m_replyChain(new QLineEdit), m_replySeed(new QSpinBox), m_replyError(new QLabel),
      m_distribution(new QComboBox), m_vocabulary(new QSpinBox), m_shape(new QDoubleSpinBox), m_q(new QLineEdit),
      m_qError(new QLabel), m_junkKind(new QComboBox),
      m_junkValue(new QDoubleSpinBox), m_junkIds(new QLineEdit), m_settings(new QPlainTextEdit),
      m_lengths(new QLineEdit), m_replies(new QSpinBox), m_seed(new QSpinBox), m_rng(new QComboBox),
      m_threads(new QSpinBox), m_logN(new QCheckBox(tr("log scale for N"))),
      m_highlight(new QSpinBox), m_lessonText(new QLabel), m_table(new QTableView)
{
    setExperimentRuns(m_runs);
    m_mode->addItems({tr("one distribution, the same at every step"), tr("along a reply: the steps of a logits file"),
                      tr("along a reply: the built-in model")});
    m_mode->setToolTip(tr("One distribution: q is the same at every step, risk 1 - (1 - q)^N. Along a reply: each step "
                          "has its own distribution and q_t, risk 1 - prod (1 - q_t) over the first n steps."));
    m_stepsFile->setPlaceholderText(tr("a .npy, .npz or safetensors file of [steps, V] logits"));
    m_stepsFile->setToolTip(tr("The model's dump, relative to the experiment file's folder or absolute "
                               "(docs/import.md)."));
    m_stepRange->setPlaceholderText(QStringLiteral("all"));
    m_stepRange->setToolTip(tr("The steps to walk: all, FROM..TO (both included) or FROM; negative counts from the end."));
    m_prompt->setPlaceholderText(tr("The sampler"));
    m_prompt->setToolTip(tr("The words the built-in model continues."));
    m_replyLength->setRange(1, static_cast<int>(app::kMaxReplyLength));
    m_replyLength->setValue(60);
    m_replyLength->setToolTip(tr("Tokens in the reply (1..%1).").arg(app::kMaxReplyLength));
    m_replyChain->setPlaceholderText(tr("llama.cpp defaults"));
    m_replyChain->setToolTip(tr("The chain that generates the reply (llama.cpp semantics; any stage, stateful ones too). "
                                "The decoding settings below are then compared along that reply."));
    m_replySeed->setRange(0, std::numeric_limits<int>::max());
    m_replySeed->setValue(42);
    m_replySeed->setToolTip(tr("The seed of the reply's draws."));
    m_replyError->setStyleSheet(QStringLiteral("color: #b00020"));
    m_replyError->setWordWrap(true);
    m_replyError->hide();
    for (QLineEdit* field : {m_stepsFile, m_stepRange, m_prompt, m_replyChain})
        connect(field, &QLineEdit::textChanged, this, &JunkRiskPage::checkReplyFields);
    connect(m_mode, &QComboBox::currentIndexChanged, this, &JunkRiskPage::runStateChanged);
    m_distribution->addItems(
        {QString(), tr("Zipf over V tokens"), tr("normal logits over V tokens"), tr("q per token (junk or not)")});
    m_distribution->setToolTip(tr("The per-step distribution, the same at every step."));
    m_vocabulary->setRange(2, static_cast<int>(app::kMaxVocabulary));
    m_vocabulary->setValue(262144);
    m_vocabulary->setToolTip(tr("V, the vocabulary size of a synthetic distribution."));
    m_shape->setRange(0.0, 100.0);
    m_shape->setDecimals(3);
    m_shape->setToolTip(tr("Zipf: the exponent s of p(rank r) ~ 1/r^s. Normal: sigma of the logits."));
    m_q->setToolTip(tr("q, the chance that one token is junk: the lesson's \"each token has a 0.4% chance\" is 0.004. "
                       "The distribution is then two tokens, other (1 - q) and junk (q)."));
    m_q->setPlaceholderText(QStringLiteral("0.004"));
    m_qError->setStyleSheet(QStringLiteral("color: #b00020"));
    m_qError->setWordWrap(true);
    m_qError->hide();
    connect(m_q, &QLineEdit::textChanged, this, &JunkRiskPage::checkQField);
    m_highlight->setRange(1, static_cast<int>(engine::JunkRiskExperiment::kMaxLength));
    m_highlight->setValue(300);
    m_highlight->setGroupSeparatorShown(true);
    m_highlight->setToolTip(tr("The reply length N whose P(at least one junk token) and P(no junk token) are "
                               "highlighted below the chart (the lesson asks about N = 300)."));
    m_lessonText->setWordWrap(true);
    m_lessonText->setTextFormat(Qt::RichText);
    m_lessonText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_lessonText->setToolTip(tr("Analytic: each token is junk with probability q, independently, so "
                                "P(no junk token) = (1 - q)^N and P(at least one) = 1 - (1 - q)^N."));
    m_junkKind->addItems({tr("probability below"), tr("least likely tail holding"), tr("token ids")});
    m_junkValue->setRange(0.0, 1.0);
    m_junkValue->setDecimals(6);
    m_junkValue->setSingleStep(0.001);
    m_junkIds->setPlaceholderText(tr("ids, e.g. 4 or 10,11,12"));
    m_settings->setPlaceholderText(tr("one per line, [label:] [preset:] chain, e.g.\nplain: temperature=1\n"
                                      "top-p 0.9: temperature=1, top-p=0.9\nllama min-p: llama.cpp: min-p=0.1, temperature=1"));
    m_settings->setToolTip(tr("One decoding setting per line: an optional label, an optional preset (lesson, llama.cpp, "
                              "hf, vllm) and any chain of stages without state, e.g. "
                              "'hf top-k: hf: top-k=50, temperature=0.7'."));
    m_settings->setMaximumHeight(110);
    m_lengths->setToolTip(tr("A list (1,10,300) or a range: 1..2000 log 30, or 10..1000 step 10."));
    m_replies->setRange(0, static_cast<int>(engine::JunkRiskExperiment::kMaxReplies));
    m_replies->setSingleStep(1000);
    m_replies->setToolTip(tr("Monte Carlo replies per setting; 0 computes the analytic curve only."));
    m_seed->setRange(0, std::numeric_limits<int>::max());
    for (const auto& name : engine::rngNames())
        m_rng->addItem(QString::fromStdString(name));
    m_threads->setRange(1, 256);
    m_threads->setValue(app::defaultThreadCount());
    m_threads->setToolTip(tr("Worker threads. Changes the speed, never the numbers."));

    connect(m_distribution, &QComboBox::currentIndexChanged, this, &JunkRiskPage::runStateChanged);
    // Picking "q per token" by hand makes its junk token the junk (the lesson's case in one entry).
    connect(m_distribution, &QComboBox::activated, this, [this](int index) {
        if (index != QPerToken)
            return;
        m_junkKind->setCurrentIndex(static_cast<int>(engine::JunkDefinition::Kind::Ids));
        m_junkIds->setText(QStringLiteral("1"));
        if (m_q->text().trimmed().isEmpty())
            m_q->setText(QStringLiteral("0.004"));
    });
    connect(m_junkKind, &QComboBox::currentIndexChanged, this, &JunkRiskPage::runStateChanged);
    connect(m_logN, &QCheckBox::toggled, this, [this] { showLessonTerms(); });
    connect(m_highlight, &QSpinBox::valueChanged, this, [this] { showLessonTerms(); });

    auto* form = new QFormLayout;
    form->addRow(tr("Steps"), m_mode);
    form->addRow(tr("Logits file"), m_stepsFile);
    form->addRow(tr("File steps"), m_stepRange);
    form->addRow(tr("Prompt"), m_prompt);
    auto* replyRow = new QHBoxLayout;
    replyRow->addWidget(m_replyLength);
    replyRow->addWidget(new QLabel(tr("seed")));
    replyRow->addWidget(m_replySeed);
    form->addRow(tr("Reply length"), replyRow);
    form->addRow(tr("Reply chain"), m_replyChain);
    form->addRow(QString(), m_replyError);
    form->addRow(tr("Distribution"), m_distribution);
    form->addRow(tr("V"), m_vocabulary);
    form->addRow(tr("Exponent / sigma"), m_shape);
    auto* qRow = new QVBoxLayout;
    qRow->setContentsMargins(0, 0, 0, 0);
    qRow->addWidget(m_q);
    qRow->addWidget(m_qError);
    form->addRow(tr("q per token"), qRow);
    auto* junkRow = new QHBoxLayout;
    junkRow->addWidget(m_junkKind);
    junkRow->addWidget(m_junkValue);
    junkRow->addWidget(m_junkIds);
    form->addRow(tr("Junk"), junkRow);
    form->addRow(tr("Settings"), m_settings);
    form->addRow(tr("Lengths N"), m_lengths);
    form->addRow(tr("Replies"), m_replies);
    form->addRow(tr("Seed"), m_seed);
    form->addRow(tr("Generator"), m_rng);
    form->addRow(tr("Threads"), m_threads);
    form->addRow(QString(), m_logN);
    form->addRow(tr("N for the highlight"), m_highlight);
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

    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(ResultTableModel::SortRole);
    m_table->setModel(proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // the experiment's order until a header is clicked
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->verticalHeader()->hide();

    auto* view = new QChartView(m_chart->chart()); // takes ownership of the QChart
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(280);
    m_charts->addWidget(view);
    auto* replyCharts = new QSplitter(Qt::Vertical);
    for (QChart* chart : {m_replyChart->risk(), m_replyChart->q()}) {
        auto* replyView = new QChartView(chart);
        replyView->setRenderHint(QPainter::Antialiasing);
        replyView->setMinimumHeight(140);
        replyCharts->addWidget(replyView);
    }
    m_charts->addWidget(replyCharts);
    auto* chartPane = new QWidget;
    auto* chartLayout = new QVBoxLayout(chartPane);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->addWidget(staleLabel());
    chartLayout->addWidget(m_charts, 1);
    chartLayout->addWidget(m_lessonText);
    auto* results = new QSplitter(Qt::Vertical);
    results->addWidget(chartPane);
    results->addWidget(m_table);
    results->setStretchFactor(0, 3);
    results->setStretchFactor(1, 2);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(controlBox);
    split->addWidget(results);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    watchControls(controlBox, {m_logN, m_threads, m_highlight});
    setSpec(lessonSpec(), QString());
    showLessonTerms();
    markSaved();  // the starting point is not an unsaved change
}

QString JunkRiskPage::title() const
{
    return tr("Junk risk");
}

QChart* JunkRiskPage::chart() const
{
    return m_charts->currentIndex() == 1 ? m_replyChart->risk() : m_chart->chart();
}

QAbstractItemModel* JunkRiskPage::resultsModel() const
{
    return m_model;
}

std::optional<app::ResultTable> JunkRiskPage::resultTable() const
{
    return m_model->table();
}

app::Provenance JunkRiskPage::provenance() const
{
    if (m_hasResults)
        return app::junkRiskProvenance(m_resultSpec, baseDir());
    const auto spec = specFromControls();
    return app::junkRiskProvenance(spec.ok() ? spec.value() : m_loaded, baseDir());
}

void JunkRiskPage::setSpec(const app::JunkRiskSpec& spec, const QString& baseDir)
{
    using Kind = app::DistributionSpec::Kind;
    m_loaded = spec;
    setBaseDir(baseDir);
    m_distribution->setItemText(FromFile, describeLoaded(spec.distribution));
    switch (spec.distribution.kind) {
    case Kind::Zipf:
        m_distribution->setCurrentIndex(Zipf);
        break;
    case Kind::Normal:
        m_distribution->setCurrentIndex(Normal);
        break;
    case Kind::QPerToken:
        m_distribution->setCurrentIndex(QPerToken);
        break;
    case Kind::Logits:
    case Kind::Probabilities:
    case Kind::File:
        m_distribution->setCurrentIndex(FromFile);
        break;
    }
    m_mode->setCurrentIndex(spec.reply ? BuiltinReply : spec.distribution.steps ? FileSteps : OneDistribution);
    if (spec.distribution.kind == Kind::File) {
        m_stepsFile->setText(spec.distribution.path);
        m_stepRange->setText(stepRangeText(spec.distribution.steps.value_or(app::StepRange{})));
    }
    const app::ReplySpec reply = spec.reply.value_or(app::ReplySpec{});
    if (spec.reply || m_prompt->text().isEmpty()) {
        m_prompt->setText(spec.reply ? reply.prompt : QStringLiteral("The sampler"));
        m_replyLength->setValue(static_cast<int>(reply.length));
        m_replyChain->setText(reply.chain);
        m_replySeed->setValue(static_cast<int>(std::min<qint64>(reply.seed, m_replySeed->maximum())));
    }
    m_q->setText(QString::number(spec.distribution.q, 'g', 15));
    m_vocabulary->setValue(static_cast<int>(spec.distribution.vocabulary));
    m_shape->setValue(spec.distribution.kind == Kind::Normal ? spec.distribution.sigma : spec.distribution.exponent);
    m_junkKind->setCurrentIndex(static_cast<int>(spec.junk.kind));
    m_junkValue->setValue(spec.junk.value);
    QStringList ids;
    for (auto id : spec.junk.ids)
        ids << QString::number(id);
    m_junkIds->setText(ids.join(QLatin1Char(',')));
    m_settings->setPlainText(app::settingsToLines(spec.settings));
    m_lengths->setText(lengthsText(spec.lengths));
    m_replies->setValue(static_cast<int>(std::min<qint64>(spec.replies, m_replies->maximum())));
    m_seed->setValue(static_cast<int>(std::min<qint64>(spec.seed, m_seed->maximum())));
    m_rng->setCurrentText(spec.rng);
    m_logN->setChecked(spec.logLengthAxis);
    runStateChanged();
}

bool JunkRiskPage::acceptDistribution(const engine::Distribution& distribution)
{
    const auto current = specFromControls();
    app::JunkRiskSpec spec = current.ok() ? current.value() : m_loaded;
    spec.distribution = {};
    spec.distribution.kind = app::DistributionSpec::Kind::Logits;
    spec.reply.reset();  // the Explorer's logits are one distribution
    for (double logit : distribution.logits)
        spec.distribution.values << logit;
    for (const auto& token : distribution.tokens)
        spec.distribution.tokens << QString::fromStdString(token);
    setSpec(spec, baseDir());
    return true;
}

engine::Result<app::JunkRiskSpec> JunkRiskPage::specFromControls() const
{
    using Kind = app::DistributionSpec::Kind;
    app::JunkRiskSpec spec = m_loaded;
    const int mode = m_mode->currentIndex();
    spec.reply.reset();
    spec.distribution.steps.reset();
    if (mode == FileSteps) {
        const QString path = m_stepsFile->text().trimmed();
        if (path.isEmpty())
            return Error{tr("Logits file: name a .npy, .npz or safetensors file of [steps, V] logits").toStdString()};
        const auto range = parseStepRangeText(m_stepRange->text());
        if (!range)
            return Error{range.error()};
        // The loaded file keeps its array, batch and vocabulary; another file starts plain.
        if (m_loaded.distribution.kind != Kind::File || m_loaded.distribution.path != path) {
            spec.distribution = {};
            spec.distribution.kind = Kind::File;
            spec.distribution.path = path;
        }
        spec.distribution.row.reset();
        spec.distribution.steps = range.value();
    } else if (mode == BuiltinReply) {
        app::ReplySpec reply = m_loaded.reply.value_or(app::ReplySpec{});
        reply.prompt = m_prompt->text();
        reply.length = m_replyLength->value();
        reply.chain = m_replyChain->text().trimmed();
        reply.seed = m_replySeed->value();
        spec.reply = reply;
    } else if (m_distribution->currentIndex() == QPerToken) {
        const auto q = parseQ(m_q->text());
        if (!q)
            return Error{q.error()};
        spec.distribution = {};
        spec.distribution.kind = Kind::QPerToken;
        spec.distribution.q = q.value();
    } else if (m_distribution->currentIndex() != FromFile) {
        spec.distribution = {};
        spec.distribution.kind = m_distribution->currentIndex() == Zipf ? Kind::Zipf : Kind::Normal;
        spec.distribution.vocabulary = m_vocabulary->value();
        if (spec.distribution.kind == Kind::Zipf)
            spec.distribution.exponent = std::min(m_shape->value(), 10.0);
        else
            spec.distribution.sigma = m_shape->value();
    }
    spec.junk = {};
    spec.junk.kind = static_cast<engine::JunkDefinition::Kind>(m_junkKind->currentIndex());
    if (spec.junk.kind == engine::JunkDefinition::Kind::Ids) {
        for (const QString& item : m_junkIds->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            bool ok = false;
            const int id = item.trimmed().toInt(&ok);
            if (!ok || id < 0)
                return Error{tr("Junk: '%1' is not a token id").arg(item.trimmed()).toStdString()};
            spec.junk.ids.push_back(id);
        }
        if (spec.junk.ids.empty())
            return Error{tr("Junk: list at least one token id").toStdString()};
    } else {
        spec.junk.value = m_junkValue->value();
    }
    auto settings = app::settingsFromLines(m_settings->toPlainText());
    if (!settings)
        return Error{settings.error()};
    spec.settings = settings.value();
    if (mode == OneDistribution) {  // along a reply every step is a length
        auto lengths = parseLengthsText(m_lengths->text());
        if (!lengths)
            return Error{lengths.error()};
        spec.lengths = lengths.value();
    }
    spec.replies = m_replies->value();
    spec.seed = m_seed->value();
    spec.rng = m_rng->currentText();
    spec.logLengthAxis = m_logN->isChecked();
    // The file format's own checks, so the page and the CLI accept exactly the same experiments.
    auto checked = app::parseJunkRisk(app::toJson(spec), tr("page"));
    if (!checked)
        return Error{checked.error()};
    return checked.value();
}

QString JunkRiskPage::readExperimentFile(const QString& path)
{
    const auto spec = app::readJunkRiskFile(path);
    if (!spec)
        return QString::fromStdString(spec.error());
    setSpec(spec.value(), QFileInfo(path).absolutePath());
    return {};
}

QString JunkRiskPage::writeExperimentFile(const QString& path)
{
    const auto spec = specFromControls();
    return spec.ok() ? app::writeJunkRiskFile(path, spec.value()) : QString::fromStdString(spec.error());
}

void JunkRiskPage::run()
{
    const auto spec = specFromControls();
    if (!spec) {
        showError(QString::fromStdString(spec.error()));
        return;
    }
    startRun<app::JunkRiskOutcome>(
        *m_runs, tr("Running %1…").arg(spec->name),
        [spec = spec.value(), dir = baseDir(), source = tr("page"), threads = m_threads->value()](
            const app::WorkControl& control) { return app::runJunkRisk(spec, dir, source, threads, control); },
        [this, spec = spec.value()](app::JunkRiskOutcome& outcome) { showResults(spec, outcome); });
}

void JunkRiskPage::showResults(const app::JunkRiskSpec& spec, const app::JunkRiskOutcome& outcome)
{
    m_resultSpec = spec;
    m_hasResults = true;
    m_rows = outcome.rows;
    m_replyRows = outcome.replyRows;
    m_replyChart->setRows(m_replyRows);
    m_charts->setCurrentIndex(spec.alongReply() ? 1 : 0);
    m_junkCount = outcome.junkCount;
    m_junkNames = outcome.junkNames;
    m_model->setTable(app::junkRiskResult(spec, baseDir(), outcome, m_threads->value()).tables.front());
    showLessonTerms();
    resultsShownFor(app::toJson(spec));
}

void JunkRiskPage::showLessonTerms()
{
    const qint64 n = m_highlight->value();
    m_chart->setRows(m_rows, m_logN->isChecked(), m_hasResults ? n : 0);
    m_highlights.clear();
    if (!m_hasResults) {
        m_lessonText->setText(tr("Run to see each setting's q and its risk at N = %1.").arg(groupingLocale().toString(n)));
        return;
    }
    const QLocale locale = groupingLocale();
    if (m_resultSpec.alongReply()) {
        // The reply's whole length, per setting: the last row of each (steps restart at 1).
        QStringList lines;
        for (std::size_t i = 0; i < m_replyRows.size(); ++i) {
            const auto& row = m_replyRows[i];
            if (i + 1 < m_replyRows.size() && m_replyRows[i + 1].step != 1)
                continue;
            QString line = tr("<b>%1</b>: over the reply's %2 tokens, expected junk tokens %3; "
                              "P(at least one junk token) = <b>%4</b>")
                               .arg(QString::fromStdString(row.setting).toHtmlEscaped(), locale.toString(row.step),
                                    locale.toString(row.expectedCount, 'g', 4), locale.toString(row.analytic, 'f', 4));
            if (std::isfinite(row.monteCarlo))
                line += tr(" (Monte Carlo: %1)").arg(locale.toString(row.monteCarlo, 'f', 4));
            lines << line;
        }
        m_lessonText->setText(lines.join(QStringLiteral("<br>")));
        return;
    }
    m_highlights = engine::junkRiskHighlights(m_rows, n);
    QStringList names = m_junkNames;
    for (QString& name : names)
        name = name.toHtmlEscaped();
    QString junk = m_junkCount == 0   ? tr("No token is junk under this definition")
                   : m_junkCount == 1 ? tr("Junk token: %1").arg(names.join(QString()))
                                      : tr("Junk tokens (%1): %2")
                                            .arg(locale.toString(static_cast<qulonglong>(m_junkCount)),
                                                 names.join(QStringLiteral(", ")));
    if (m_junkCount > static_cast<std::size_t>(m_junkNames.size()))
        junk += tr(" and %1 more").arg(locale.toString(static_cast<qulonglong>(m_junkCount - static_cast<std::size_t>(m_junkNames.size()))));
    QStringList lines{junk};
    const QString nText = locale.toString(n);
    for (const auto& h : m_highlights) {
        QString line = tr("<b>%1</b>: q = %2 per token (%3%); at N = %4: P(at least one junk token) = <b>%5</b>, "
                          "P(no junk token) = <b>%6</b>")
                           .arg(QString::fromStdString(h.setting).toHtmlEscaped(), locale.toString(h.q, 'g', 4),
                                locale.toString(100.0 * h.q, 'g', 3), nText, locale.toString(h.atLeastOne, 'f', 4),
                                locale.toString(h.none, 'f', 4));
        if (std::isfinite(h.monteCarlo))
            line += tr(" (Monte Carlo: %1 with junk)").arg(locale.toString(h.monteCarlo, 'f', 4));
        lines << line;
    }
    m_lessonText->setText(lines.join(QStringLiteral("<br>")));
}

void JunkRiskPage::checkQField()
{
    const auto q = parseQ(m_q->text());
    const bool show = m_distribution->currentIndex() == QPerToken && !q.ok();
    m_qError->setText(show ? QString::fromStdString(q.error()) : QString());
    m_qError->setVisible(show);
}

QJsonObject JunkRiskPage::controlsJson() const
{
    const auto spec = specFromControls();
    return spec.ok() ? app::toJson(spec.value()) : QJsonObject();
}

QString JunkRiskPage::replyFieldsProblem() const
{
    const int mode = m_mode->currentIndex();
    if (mode == BuiltinReply) {
        if (engine::wordTokens(m_prompt->text().toStdString()).empty())
            return tr("Prompt: type at least one word: the model continues a prompt");
        app::LoopSpec loop;
        loop.chain = m_replyChain->text().trimmed();
        if (const auto chain = app::loopChain(loop); !chain)
            return tr("Reply chain: %1").arg(QString::fromStdString(chain.error()));
        return {};
    }
    if (mode != FileSteps)
        return {};
    const QString name = m_stepsFile->text().trimmed();
    if (name.isEmpty())
        return tr("Logits file: name a .npy, .npz or safetensors file of [steps, V] logits");
    const auto range = parseStepRangeText(m_stepRange->text());
    if (!range)
        return QString::fromStdString(range.error());
    const QString path = QFileInfo(name).isAbsolute() ? name : QDir(baseDir()).filePath(name);
    if (auto problem = app::logitsFileProblem(path))
        return QString::fromStdString(*problem);
    // A .npy or safetensors header is read in microseconds (the data stays mapped, unread); an
    // .npz member would be inflated, so its range is checked when the run starts.
    const auto format = app::fileFormat(path);
    if (format == engine::LogitsFormat::Text)
        return tr("%1: a text file holds one distribution; along a reply needs a .npy, .npz or safetensors file").arg(name);
    if (format == engine::LogitsFormat::Npz)
        return {};
    const QString array = m_loaded.distribution.path == name ? m_loaded.distribution.array : QString();
    const auto opened = app::LogitsArray::open(path, array);
    if (!opened)
        return QString::fromStdString(opened.error());
    const auto steps = app::resolveStepRange(range.value(), opened->layout().steps(), name.toStdString(), "steps");
    return steps ? QString() : QString::fromStdString(steps.error());
}

void JunkRiskPage::checkReplyFields()
{
    const QString problem = replyFieldsProblem();
    m_replyError->setText(problem);
    m_replyError->setVisible(!problem.isEmpty());
}

void JunkRiskPage::runStateChanged()
{
    const int mode = m_mode->currentIndex();
    const bool one = mode == OneDistribution;
    for (QWidget* w : {static_cast<QWidget*>(m_stepsFile), static_cast<QWidget*>(m_stepRange)})
        w->setEnabled(mode == FileSteps);
    for (QWidget* w : {static_cast<QWidget*>(m_prompt), static_cast<QWidget*>(m_replyLength),
                       static_cast<QWidget*>(m_replyChain), static_cast<QWidget*>(m_replySeed)})
        w->setEnabled(mode == BuiltinReply);
    for (QWidget* w : {static_cast<QWidget*>(m_distribution), static_cast<QWidget*>(m_lengths),
                       static_cast<QWidget*>(m_logN), static_cast<QWidget*>(m_highlight)})
        w->setEnabled(one);
    checkReplyFields();
    const int choice = m_distribution->currentIndex();
    const bool synthetic = one && (choice == Zipf || choice == Normal);
    m_q->setEnabled(one && choice == QPerToken);
    checkQField();
    m_vocabulary->setEnabled(synthetic);
    m_shape->setEnabled(synthetic);
    const bool ids = m_junkKind->currentIndex() == static_cast<int>(engine::JunkDefinition::Kind::Ids);
    m_junkValue->setVisible(!ids);
    m_junkIds->setVisible(ids);
}

} // namespace logitlab::ui
