#include "ui/forms/junk_risk_form.h"

#include "app/io/input_file.h"
#include "app/io/logits_array.h"
#include "app/io/logits_file.h"
#include "app/kinds/loop_spec.h"
#include "app/text/lengths_text.h"
#include "app/text/setting_lines.h"
#include "app/text/step_range.h"
#include "charts/token_display.h"
#include "engine/io/logits_parser.h"
#include "engine/models/word_tokens.h"
#include "engine/rng/rng_factory.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace logitlab::ui {

namespace {

using engine::Error;

enum DistributionChoice { FromFile, Zipf, Normal, QPerToken };

// q as typed: a probability in [0, 1]; NaN, infinities and anything else are refused.
engine::Result<double> parseQ(const QString& text)
{
    bool ok = false;
    const double q = text.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(q) || q < 0.0 || q > 1.0)
        return Error{
            JunkRiskForm::tr("q per token: '%1' is not a probability in [0, 1]").arg(text.trimmed()).toStdString()};
    return q;
}

}  // namespace

app::JunkRiskSpec JunkRiskForm::lessonSpec()
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

namespace {

QString describeLoaded(const app::DistributionSpec& d)
{
    using Kind = app::DistributionSpec::Kind;
    switch (d.kind) {
    case Kind::Logits:
        return JunkRiskForm::tr("as in the file: %1 logits").arg(d.values.size());
    case Kind::Probabilities:
        return JunkRiskForm::tr("as in the file: %1 probabilities").arg(d.values.size());
    case Kind::File:
        return JunkRiskForm::tr("as in the file: %1").arg(d.path);
    case Kind::Zipf:
    case Kind::Normal:
    case Kind::QPerToken:
        break;
    }
    return JunkRiskForm::tr("as in the file");
}

}  // namespace

JunkRiskForm::JunkRiskForm(QWidget* parent)
    : SpecForm(app::parseJunkRisk, parent), m_form(new QFormLayout(this)), m_mode(new QComboBox),
      m_stepsFile(new QLineEdit), m_stepRange(new QLineEdit), m_prompt(new QLineEdit), m_replyModel(new QLineEdit),
      m_replyLength(new QSpinBox), m_replyChain(new QLineEdit), m_replySeed(new QSpinBox), m_replyError(new QLabel),
      m_distribution(new QComboBox), m_vocabulary(new QSpinBox), m_shape(new QDoubleSpinBox), m_q(new QLineEdit),
      m_qError(new QLabel), m_junkKind(new QComboBox), m_junkValue(new QDoubleSpinBox), m_junkIds(new QLineEdit),
      m_junkWarning(new QLabel), m_settings(new QPlainTextEdit), m_lengths(new QLineEdit), m_replies(new QSpinBox),
      m_seed(new QSpinBox), m_rng(new QComboBox), m_threads(new QSpinBox), m_logN(new QCheckBox(tr("log scale for N")))
{
    m_mode->addItems({tr("one distribution, the same at every step"), tr("along a reply: the steps of a logits file"),
                      tr("along a reply: a model's own reply")});
    m_mode->setToolTip(tr("One distribution: q is the same at every step, risk 1 - (1 - q)^N. Along a reply: each step "
                          "has its own distribution and q_t, risk 1 - prod (1 - q_t) over the first n steps."));
    m_stepsFile->setPlaceholderText(tr("a .npy, .npz or safetensors file of [steps, V] logits"));
    m_stepsFile->setToolTip(tr("The model's dump, relative to the experiment file's folder or absolute "
                               "(docs/import.md)."));
    m_stepRange->setPlaceholderText(QStringLiteral("all"));
    m_stepRange->setToolTip(
        tr("The steps to walk: all, FROM..TO (both included) or FROM; negative counts from the end."));
    m_prompt->setPlaceholderText(tr("The sampler"));
    m_prompt->setToolTip(tr("The words the model continues."));
    m_replyModel->setPlaceholderText(tr("empty: the built-in model; or a .gguf file"));
    m_replyModel->setToolTip(tr("A GGUF model (llama, qwen2, gpt2) run on the CPU writes the reply; relative to the "
                                "experiment file's folder. Empty: the built-in model."));
    m_replyLength->setRange(1, static_cast<int>(app::kMaxReplyLength));
    m_replyLength->setValue(60);
    m_replyLength->setToolTip(tr("Tokens in the reply (1..%1).").arg(app::kMaxReplyLength));
    m_replyChain->setPlaceholderText(tr("llama.cpp defaults"));
    m_replyChain->setToolTip(
        tr("The chain that generates the reply (llama.cpp semantics; any stage, stateful ones too). "
           "The decoding settings below are then compared along that reply."));
    m_replySeed->setRange(0, std::numeric_limits<int>::max());
    m_replySeed->setValue(42);
    m_replySeed->setToolTip(tr("The seed of the reply's draws."));
    m_replyError->setStyleSheet(QStringLiteral("color: #b00020"));
    m_replyError->setWordWrap(true);
    m_replyError->hide();
    for (QLineEdit* field : {m_stepsFile, m_stepRange, m_prompt, m_replyModel, m_replyChain})
        connect(field, &QLineEdit::textChanged, this, &JunkRiskForm::checkReplyFields);
    connect(m_mode, &QComboBox::currentIndexChanged, this, &JunkRiskForm::showModeRows);
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
    connect(m_q, &QLineEdit::textChanged, this, &JunkRiskForm::checkQField);
    m_junkKind->addItems({tr("probability below"), tr("least likely tail holding"), tr("token ids")});
    m_junkValue->setRange(0.0, 1.0);
    m_junkValue->setDecimals(6);
    m_junkValue->setSingleStep(0.001);
    m_junkIds->setPlaceholderText(tr("ids, e.g. 4 or 10,11,12"));
    m_junkWarning->setObjectName(QStringLiteral("junkWarning"));
    m_junkWarning->setStyleSheet(QStringLiteral("color: #8a5a00"));
    m_junkWarning->setWordWrap(true);
    m_junkWarning->setTextFormat(Qt::PlainText);
    m_junkWarning->hide();
    // Once the definition is looked at and edited, the warning has done its job.
    connect(m_junkIds, &QLineEdit::textEdited, m_junkWarning, &QLabel::hide);
    connect(m_junkKind, &QComboBox::activated, m_junkWarning, &QLabel::hide);
    m_settings->setPlaceholderText(
        tr("one per line, [label:] [preset:] chain, e.g.\nplain: temperature=1\n"
           "top-p 0.9: temperature=1, top-p=0.9\nllama min-p: llama.cpp: min-p=0.1, temperature=1"));
    m_settings->setToolTip(
        tr("One decoding setting per line: an optional label, an optional preset (lesson, llama.cpp, "
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

    connect(m_distribution, &QComboBox::currentIndexChanged, this, &JunkRiskForm::showModeRows);
    // Picking "q per token" by hand makes its junk token the junk (the lesson's case in one entry).
    connect(m_distribution, &QComboBox::activated, this, [this](int index) {
        if (index != QPerToken)
            return;
        m_junkKind->setCurrentIndex(static_cast<int>(engine::JunkDefinition::Kind::Ids));
        m_junkIds->setText(QStringLiteral("1"));
        if (m_q->text().trimmed().isEmpty())
            m_q->setText(QStringLiteral("0.004"));
    });
    connect(m_junkKind, &QComboBox::currentIndexChanged, this, &JunkRiskForm::showModeRows);

    auto* form = m_form;
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Steps"), m_mode);
    form->addRow(tr("Logits file"), m_stepsFile);
    form->addRow(tr("File steps"), m_stepRange);
    form->addRow(tr("Reply model"), m_replyModel);
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
    form->addRow(QString(), m_junkWarning);
    form->addRow(tr("Settings"), m_settings);
    form->addRow(tr("Lengths N"), m_lengths);
    form->addRow(tr("Replies"), m_replies);
    form->addRow(tr("Seed"), m_seed);
    form->addRow(tr("Generator"), m_rng);
    form->addRow(tr("Threads"), m_threads);
    form->addRow(QString(), m_logN);
    setSpec(lessonSpec());
}

void JunkRiskForm::reset()
{
    setBaseDir(QString());
    setSpec(lessonSpec());
}

QList<QWidget*> JunkRiskForm::displayOnlyControls() const
{
    return {m_threads, m_logN};  // the page redraws the chart for the log axis
}

int JunkRiskForm::workerThreads() const { return m_threads->value(); }

void JunkRiskForm::setSpec(const app::JunkRiskSpec& spec)
{
    using Kind = app::DistributionSpec::Kind;
    m_loaded = spec;
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
        m_stepRange->setText(app::describeStepRange(spec.distribution.steps.value_or(app::StepRange{})));
    }
    const app::ReplySpec reply = spec.reply.value_or(app::ReplySpec{});
    if (spec.reply || m_prompt->text().isEmpty()) {
        m_prompt->setText(spec.reply ? reply.prompt : QStringLiteral("The sampler"));
        m_replyModel->setText(reply.modelFile);
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
    m_lengths->setText(app::lengthsText(spec.lengths));
    m_replies->setValue(static_cast<int>(std::min<qint64>(spec.replies, m_replies->maximum())));
    m_seed->setValue(static_cast<int>(std::min<qint64>(spec.seed, m_seed->maximum())));
    m_rng->setCurrentText(spec.rng);
    m_logN->setChecked(spec.logLengthAxis);
    showModeRows();
}

namespace {

// The name of token `id` in a distribution given by value, quoted as the tables show it; empty
// when the distribution names no tokens there (a file, a synthetic vocabulary).
QString tokenNameAt(const app::DistributionSpec& d, qint64 id)
{
    if (id < 0 || id >= d.tokens.size())
        return {};
    return QStringLiteral("'%1'").arg(shownTokenName(d.tokens[id]));
}

// Junk given by token ids that mean other tokens in the new distribution: the ids were chosen
// for the old one (the lesson's "4" is banana; in a model's 50,000 tokens it is byte \x04).
QString junkIdsWarning(const engine::JunkDefinition::Kind kind, const std::vector<std::int32_t>& ids,
                       const app::DistributionSpec& before, const app::DistributionSpec& after)
{
    if (kind != engine::JunkDefinition::Kind::Ids || ids.empty())
        return {};
    QStringList changed;
    for (std::int32_t id : ids) {
        const QString was = tokenNameAt(before, id);
        const QString now =
            id < after.values.size() ? tokenNameAt(after, id) : JunkRiskForm::tr("outside the vocabulary");
        if (was != now)
            changed << JunkRiskForm::tr("%1 is now %2%3")
                           .arg(id)
                           .arg(now.isEmpty() ? JunkRiskForm::tr("an unnamed token") : now,
                                was.isEmpty() ? QString() : JunkRiskForm::tr(" (was %1)").arg(was));
    }
    if (changed.isEmpty() && before.values.size() == after.values.size())
        return {};
    if (changed.isEmpty())
        changed << JunkRiskForm::tr("the vocabulary went from %L1 to %L2 tokens")
                       .arg(before.values.size())
                       .arg(after.values.size());
    return JunkRiskForm::tr("Junk still lists the token ids chosen for the earlier distribution: %1. Check the junk "
                            "definition for these logits.")
        .arg(changed.join(QStringLiteral("; ")));
}

}  // namespace

bool JunkRiskForm::useModel(const QString& path)
{
    m_mode->setCurrentIndex(BuiltinReply);
    m_replyModel->setText(path);
    return true;
}

void JunkRiskForm::useLogits(const engine::Distribution& distribution)
{
    const auto current = specFromControls();
    app::JunkRiskSpec spec = current.ok() ? current.value() : m_loaded;
    const app::DistributionSpec before = spec.distribution;
    spec.distribution = {};
    spec.distribution.kind = app::DistributionSpec::Kind::Logits;
    spec.reply.reset();  // the Explorer's logits are one distribution
    for (double logit : distribution.logits)
        spec.distribution.values << logit;
    for (const auto& token : distribution.tokens)
        spec.distribution.tokens << QString::fromStdString(token);
    setSpec(spec);
    const QString warning = junkIdsWarning(spec.junk.kind, spec.junk.ids, before, spec.distribution);
    m_junkWarning->setText(warning);
    m_junkWarning->setVisible(!warning.isEmpty());
}

engine::Result<app::JunkRiskSpec> JunkRiskForm::specFromControls() const
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
        const auto range = app::parseStepRangeText(m_stepRange->text());
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
        reply.modelFile = m_replyModel->text().trimmed();
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
        auto lengths = app::parseLengthsText(m_lengths->text());
        if (!lengths)
            return Error{lengths.error()};
        spec.lengths = lengths.value();
    }
    spec.replies = m_replies->value();
    spec.seed = m_seed->value();
    spec.rng = m_rng->currentText();
    spec.logLengthAxis = m_logN->isChecked();
    return spec;
}

void JunkRiskForm::checkQField()
{
    const auto q = parseQ(m_q->text());
    const bool show = m_distribution->currentIndex() == QPerToken && !q.ok();
    m_qError->setText(show ? QString::fromStdString(q.error()) : QString());
    m_qError->setVisible(show);
}

QString JunkRiskForm::replyFieldsProblem() const
{
    const int mode = m_mode->currentIndex();
    if (mode == BuiltinReply) {
        if (m_replyModel->text().trimmed().isEmpty() ? engine::wordTokens(m_prompt->text().toStdString()).empty()
                                                     : m_prompt->text().isEmpty())
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
    const auto range = app::parseStepRangeText(m_stepRange->text());
    if (!range)
        return QString::fromStdString(range.error());
    const QString path = app::resolvedPath(name, baseDir());
    if (auto problem = app::logitsFileProblem(path))
        return QString::fromStdString(*problem);
    // A .npy or safetensors header is read in microseconds (the data stays mapped, unread); an
    // .npz member would be inflated, so its range is checked when the run starts.
    const auto format = app::fileFormat(path);
    if (format == engine::LogitsFormat::Text)
        return tr("%1: a text file holds one distribution; along a reply needs a .npy, .npz or safetensors file")
            .arg(name);
    if (format == engine::LogitsFormat::Npz)
        return {};
    const QString array = m_loaded.distribution.path == name ? m_loaded.distribution.array : QString();
    const auto opened = app::LogitsArray::open(path, array);
    if (!opened)
        return QString::fromStdString(opened.error());
    const auto steps = app::resolveStepRange(range.value(), opened->layout().steps(), name.toStdString(), "steps");
    return steps ? QString() : QString::fromStdString(steps.error());
}

void JunkRiskForm::checkReplyFields()
{
    const QString problem = replyFieldsProblem();
    m_replyError->setText(problem);
    m_replyError->setVisible(!problem.isEmpty());
}

void JunkRiskForm::showModeRows()
{
    const int mode = m_mode->currentIndex();
    const bool one = mode == OneDistribution;
    for (QWidget* w : {static_cast<QWidget*>(m_stepsFile), static_cast<QWidget*>(m_stepRange)})
        w->setEnabled(mode == FileSteps);
    for (QWidget* w :
         {static_cast<QWidget*>(m_prompt), static_cast<QWidget*>(m_replyModel), static_cast<QWidget*>(m_replyLength),
          static_cast<QWidget*>(m_replyChain), static_cast<QWidget*>(m_replySeed)})
        w->setEnabled(mode == BuiltinReply);
    for (QWidget* w :
         {static_cast<QWidget*>(m_distribution), static_cast<QWidget*>(m_lengths), static_cast<QWidget*>(m_logN)})
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
    emit layoutChanged();
}

}  // namespace logitlab::ui
