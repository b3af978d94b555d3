#include "ui/forms/seed_sweep_form.h"

#include "app/text/counted.h"
#include "engine/rng/rng_factory.h"
#include "engine/sampler/lesson_examples.h"
#include "engine/sampler/semantics.h"
#include "ui/forms/file_field.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QThread>

#include <algorithm>
#include <limits>

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

int clampedInt(qint64 value) { return static_cast<int>(std::clamp<qint64>(value, 0, std::numeric_limits<int>::max())); }

}  // namespace

app::SeedSweepSpec SeedSweepForm::startSpec()
{
    app::SeedSweepSpec spec;
    spec.distribution = logitsSpec(engine::lessonExercise());
    spec.chain = QStringLiteral("temperature=1,top-p=0.9");
    spec.firstSeed = 1;
    spec.seedCount = 200;
    spec.draws = 10000;
    spec.prompt = QStringLiteral("The sampler");
    spec.steps = 12;
    return spec;
}

SeedSweepForm::SeedSweepForm(QWidget* parent)
    : SpecForm(app::parseSeedSweep, parent), m_form(new QFormLayout(this)), m_mode(new QComboBox),
      m_source(new QComboBox), m_prompt(new QLineEdit),
      m_modelRow(new FileField(tr("GGUF model"), FileField::ggufFilter(), [this] { return baseDir(); })),
      m_modelFile(m_modelRow->edit()), m_steps(new QSpinBox), m_semantics(new QComboBox), m_chain(new QLineEdit),
      m_rng(new QComboBox), m_firstSeed(new QSpinBox), m_seedCount(new QSpinBox), m_seedList(new QLabel),
      m_draws(new QSpinBox), m_everyStep(new QCheckBox(tr("Every step of the file in turn"))),
      m_compare(new QCheckBox(tr("Compare two seeds"))), m_compareA(new QSpinBox), m_compareB(new QSpinBox),
      m_threads(new QSpinBox)
{
    m_form->setContentsMargins(0, 0, 0, 0);
    m_mode->setObjectName(QStringLiteral("mode"));
    m_mode->addItems({tr("Draws from one distribution"), tr("Whole replies of a model")});
    m_mode->setToolTip(tr("What a seed changes: many draws from one fixed next-token distribution (is the sampler "
                          "right?), or a whole reply of a model to the prompt (how many different answers, and where "
                          "do they part?)."));
    m_source->setObjectName(QStringLiteral("distributionSource"));
    m_source->addItems({tr("Lesson exercise: => { ( async //"), tr("Lesson example: users … banana"),
                        tr("Explorer's logits"), tr("Logits file..."), tr("As in the experiment file")});
    m_source->setToolTip(tr("The next-token distribution every seed draws from."));
    m_prompt->setToolTip(tr("What every seed's reply continues (at least one word)."));
    m_modelFile->setObjectName(QStringLiteral("modelFile"));
    m_modelFile->setPlaceholderText(tr("empty: the built-in model; or a .gguf file"));
    m_modelFile->setToolTip(tr("A GGUF model (llama, qwen2, gpt2) run on the CPU writes the replies, each seed on a "
                               "cache of its own; empty: the built-in model. File > Open model (Ctrl+Shift+O) picks "
                               "it too."));
    m_steps->setRange(1, static_cast<int>(app::kMaxLoopSteps));
    m_steps->setToolTip(tr("Tokens per reply: one pass of the model each. Seeds x tokens is at most %L1.")
                            .arg(app::kMaxSequenceSweepPasses));
    for (auto s : engine::allSemantics())
        m_semantics->addItem(QString::fromStdString(engine::semanticsName(s)));
    m_semantics->setToolTip(tr("Whose rules the chain follows: the lesson's, llama.cpp's, Hugging Face's or vLLM's."));
    m_chain->setToolTip(tr("The sampler chain as text, e.g. temperature=1,top-p=0.9 or top-k=40,min-p=0.05."));
    for (const auto& n : engine::rngNames())
        m_rng->addItem(QString::fromStdString(n));
    m_rng->setToolTip(tr("The random generator each seed starts (mulberry32 is the lesson's)."));
    m_firstSeed->setRange(0, std::numeric_limits<int>::max());
    m_firstSeed->setToolTip(tr("Seeds run from this one upwards."));
    m_seedCount->setRange(1, static_cast<int>(engine::SeedSweepExperiment::kMaxSeeds));
    m_seedCount->setToolTip(tr("How many seeds to sweep."));
    m_seedList->setWordWrap(true);
    m_seedList->hide();
    m_draws->setRange(1, static_cast<int>(engine::SeedSweepExperiment::kMaxDrawsPerSeed));
    m_draws->setToolTip(tr("Tokens drawn with each seed."));
    m_everyStep->setToolTip(tr("For a logits file of several steps (a model's reply): sweep each step's distribution "
                               "in turn, one row per step. The goodness of fit is shown only at steps where it is "
                               "valid."));
    m_compare->setToolTip(tr("Find the first draw where the two seeds' sequences differ."));
    for (QSpinBox* box : {m_compareA, m_compareB})
        box->setRange(0, std::numeric_limits<int>::max());
    m_compareA->setValue(1);
    m_compareB->setValue(2);
    m_threads->setRange(1, 256);
    m_threads->setValue(QThread::idealThreadCount());
    m_threads->setToolTip(tr("Worker threads. The results are the same for any number."));
    for (QSpinBox* box : {m_steps, m_firstSeed, m_seedCount, m_draws, m_compareA, m_compareB, m_threads}) {
        box->setGroupSeparatorShown(true);
        box->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);  // as wide as its text, at any zoom
    }

    connect(m_modelRow, &FileField::chosen, this, &SeedSweepForm::useModel);
    auto* compareRow = new QHBoxLayout;
    compareRow->addWidget(m_compareA);
    compareRow->addWidget(m_compareB);
    compareRow->addStretch();

    m_form->addRow(tr("&Mode"), m_mode);
    m_form->addRow(tr("&Distribution"), m_source);
    m_form->addRow(tr("M&odel"), m_modelRow);
    m_form->addRow(tr("&Prompt"), m_prompt);
    m_form->addRow(tr("Reply &length"), m_steps);
    m_form->addRow(tr("&Semantics"), m_semantics);
    m_form->addRow(tr("C&hain"), m_chain);
    m_form->addRow(tr("R&NG"), m_rng);
    m_form->addRow(tr("&First seed"), m_firstSeed);
    m_form->addRow(tr("S&eeds"), m_seedCount);
    m_form->addRow(QString(), m_seedList);
    m_form->addRow(tr("D&raws per seed"), m_draws);
    m_form->addRow(QString(), m_everyStep);
    m_form->addRow(m_compare, compareRow);
    m_form->addRow(tr("&Threads"), m_threads);

    connect(m_source, &QComboBox::activated, this, [this](int index) {
        if (index != LogitsFile)
            return;
        const QString path = QFileDialog::getOpenFileName(this, tr("Open logits"), baseDir(),
                                                          tr("Logits (*.csv *.txt *.npy);;All files (*)"));
        if (!path.isEmpty())
            useLogitsFile(path);
    });
    connect(m_mode, &QComboBox::currentIndexChanged, this, &SeedSweepForm::showModeRows);
    connect(m_source, &QComboBox::currentIndexChanged, this, &SeedSweepForm::showModeRows);
    connect(m_compare, &QCheckBox::toggled, this, &SeedSweepForm::showModeRows);
    for (QSpinBox* box : {m_firstSeed, m_seedCount})
        connect(box, &QSpinBox::valueChanged, this, &SeedSweepForm::showModeRows);
    showStart();
}

void SeedSweepForm::showStart()
{
    const app::SeedSweepSpec start = startSpec();
    setSpec(start);
    m_source->setCurrentIndex(LessonExercise);
    // The replies' rows too, which a spec of draws leaves as they are.
    m_prompt->setText(start.prompt);
    m_steps->setValue(static_cast<int>(start.steps));
}

void SeedSweepForm::reset()
{
    setBaseDir(QString());
    m_explorerLogits = {};
    m_logitsFile.clear();
    m_source->setItemText(LogitsFile, tr("Logits file..."));
    m_source->setItemData(LogitsFile, QVariant(), Qt::ToolTipRole);
    showStart();
}

QList<QWidget*> SeedSweepForm::displayOnlyControls() const { return {m_threads}; }

int SeedSweepForm::workerThreads() const { return m_threads->value(); }

void SeedSweepForm::useLogits(const engine::Distribution& distribution)
{
    m_explorerLogits = distribution;
    m_mode->setCurrentIndex(DrawsMode);
    m_source->setCurrentIndex(ExplorerLogits);
    showModeRows();
}

bool SeedSweepForm::useModel(const QString& path)
{
    m_mode->setCurrentIndex(RepliesMode);
    m_modelFile->setText(path);
    return true;
}

void SeedSweepForm::useLogitsFile(const QString& path)
{
    m_logitsFile = path;
    m_source->setItemText(LogitsFile, tr("Logits file: %1").arg(QFileInfo(path).fileName()));
    m_source->setItemData(LogitsFile, path, Qt::ToolTipRole);
    m_mode->setCurrentIndex(DrawsMode);
    m_source->setCurrentIndex(LogitsFile);
    showModeRows();
}

bool SeedSweepForm::everyStep() const
{
    return m_mode->currentIndex() == DrawsMode && m_everyStep->isEnabled() && m_everyStep->isChecked();
}

bool SeedSweepForm::seedListKept() const
{
    const auto& list = m_loaded.seedList;
    return !m_loaded.seedRange && !list.isEmpty() && m_firstSeed->value() == clampedInt(list.front()) &&
           m_seedCount->value() == list.size();
}

void SeedSweepForm::showModeRows()
{
    const bool replies = m_mode->currentIndex() == RepliesMode;
    // Every step needs a file: a chosen logits file, or an opened experiment's file distribution.
    const int source = m_source->currentIndex();
    m_everyStep->setEnabled(source == LogitsFile || (source == AsInExperimentFile &&
                                                     m_loaded.distribution.kind == app::DistributionSpec::Kind::File));
    for (QWidget* w : {static_cast<QWidget*>(m_source), static_cast<QWidget*>(m_draws),
                       static_cast<QWidget*>(m_compare), static_cast<QWidget*>(m_everyStep)})
        m_form->setRowVisible(w, !replies);
    for (QWidget* w : {static_cast<QWidget*>(m_prompt), static_cast<QWidget*>(m_steps)})
        m_form->setRowVisible(w, replies);
    m_form->setRowVisible(m_modelRow, replies);
    m_compareA->setEnabled(m_compare->isChecked());
    m_compareB->setEnabled(m_compare->isChecked());
    // A list that is a run of seeds (the lesson's [42]) reads the same as the range: no note.
    const auto& list = m_loaded.seedList;
    bool run = true;
    for (qsizetype i = 1; i < list.size(); ++i)
        run = run && list[i] == list[i - 1] + 1;
    const bool kept = seedListKept() && !run;
    if (kept) {
        QStringList seeds;
        for (qint64 s : m_loaded.seedList.mid(0, 8))
            seeds << QString::number(s);
        if (m_loaded.seedList.size() > 8)
            seeds << QStringLiteral("…");
        m_seedList->setText(
            tr("The file's %1: %2. Change First seed or Seeds to sweep a range instead.")
                .arg(app::counted(m_loaded.seedList.size(), "seed", "seeds"), seeds.join(QStringLiteral(", "))));
    }
    m_seedList->setVisible(kept);
    emit layoutChanged();
}

engine::Result<app::SeedSweepSpec> SeedSweepForm::specFromControls() const
{
    using engine::Error;
    app::SeedSweepSpec spec;
    spec.name = m_loaded.name;
    spec.description = m_loaded.description;
    if (m_mode->currentIndex() == RepliesMode) {
        spec.source = app::SeedSweepSpec::Source::Sequence;
        spec.prompt = m_prompt->text();
        spec.modelFile = m_modelFile->text().trimmed();
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
                return Error{tr("Distribution: no logits from the Explorer yet").toStdString()};
            spec.distribution = logitsSpec(m_explorerLogits);
            break;
        case LogitsFile:
            if (m_logitsFile.isEmpty())
                return Error{tr("Distribution: choose a logits file").toStdString()};
            spec.distribution.kind = app::DistributionSpec::Kind::File;
            spec.distribution.path = m_logitsFile;
            break;
        default:
            spec.distribution = m_loaded.distribution;
            break;
        }
        if (spec.distribution.kind == app::DistributionSpec::Kind::File) {
            if (everyStep()) {
                if (!spec.distribution.steps)
                    spec.distribution.steps = app::StepRange{};  // all steps
                spec.distribution.row.reset();
            } else {
                spec.distribution.steps.reset();
            }
        }
        spec.draws = m_draws->value();
        if (m_compare->isChecked())
            spec.compare = std::make_pair<qint64, qint64>(m_compareA->value(), m_compareB->value());
    }
    spec.semantics = m_semantics->currentText();
    // The file's arithmetic belongs to its semantics: kept while they are the file's.
    if (spec.semantics == m_loaded.semantics)
        spec.arithmetic = m_loaded.arithmetic;
    spec.chain = m_chain->text().trimmed();
    spec.rng = m_rng->currentText();
    if (seedListKept()) {
        spec.seedRange = false;
        spec.seedList = m_loaded.seedList;
    } else {
        spec.seedRange = true;
        spec.firstSeed = m_firstSeed->value();
        spec.seedCount = m_seedCount->value();
    }
    // The file format reads the chain as text; parsed here too, its mistakes show at once instead
    // of after a run starts (SpecForm::spec then runs the file format's checks).
    if (auto chain = app::sweepChain(spec); !chain)
        return Error{tr("controls: ").toStdString() + chain.error()};
    return spec;
}

void SeedSweepForm::setSpec(const app::SeedSweepSpec& spec)
{
    m_loaded = spec;
    m_mode->setCurrentIndex(spec.isSequence() ? RepliesMode : DrawsMode);
    if (spec.isSequence()) {
        m_prompt->setText(spec.prompt);
        m_modelFile->setText(spec.modelFile);
        m_steps->setValue(static_cast<int>(spec.steps));
    } else {
        m_source->setCurrentIndex(AsInExperimentFile);
        m_everyStep->setChecked(spec.distribution.steps.has_value());
        m_draws->setValue(static_cast<int>(spec.draws));
        m_compare->setChecked(spec.compare.has_value());
        if (spec.compare) {
            m_compareA->setValue(clampedInt(spec.compare->first));
            m_compareB->setValue(clampedInt(spec.compare->second));
        }
    }
    m_semantics->setCurrentText(spec.semantics);
    m_chain->setText(spec.chain);
    m_rng->setCurrentText(spec.rng);
    const auto seeds = spec.seeds();
    m_firstSeed->setValue(clampedInt(static_cast<qint64>(seeds.front())));
    m_seedCount->setValue(static_cast<int>(seeds.size()));
    showModeRows();
}

}  // namespace logitlab::ui
