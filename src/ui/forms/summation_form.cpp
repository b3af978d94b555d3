#include "ui/forms/summation_form.h"

#include "engine/experiments/summation_methods.h"
#include "engine/experiments/summation_terms.h"
#include "ui/forms/file_field.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QSpinBox>

#include <limits>

namespace logitlab::ui {

namespace {

using engine::Error;

// The distribution choices in the combo box, in its order.
enum TermsChoice { Normal, Uniform, Cauchy, Mixed, Pasted, FromFile };
const char* const kDistributionNames[] = {"normal", "uniform", "cauchy", "mixed"};

const int kSpreadChoices[] = {0, 1000, 10000, 100000, 1000000, 10000000};

QString pastedText(const QList<double>& values)
{
    QStringList lines;
    for (double v : values)
        lines << QString::number(v, 'g', 17);
    return lines.join(QLatin1Char('\n'));
}

}  // namespace

app::SummationSpec SummationForm::startSpec()
{
    app::SummationSpec spec;
    spec.name = QStringLiteral("summation-order");
    spec.spreadMaxN = 1000000;
    spec.spreadTerms = 20000000;
    return spec;
}

SummationForm::SummationForm(QWidget* parent)
    : SpecForm(app::parseSummation, parent), m_form(new QFormLayout(this)),
      m_fileRow(new FileField(tr("Terms file"), QString(), [this] { return baseDir(); })),
      m_distribution(new QComboBox), m_n(new QSpinBox), m_scale(new QDoubleSpinBox), m_pasted(new QPlainTextEdit),
      m_file(m_fileRow->edit()), m_storage(new QComboBox), m_accumulator(new QComboBox), m_shuffles(new QSpinBox),
      m_seed(new QSpinBox), m_split(new QSpinBox), m_lanes(new QComboBox), m_threads(new QSpinBox),
      m_spread(new QComboBox), m_workers(new QSpinBox)
{
    m_distribution->addItems({tr("normal"), tr("uniform [0, 1)"), tr("heavy-tailed (Cauchy)"), tr("mixed magnitudes"),
                              tr("pasted list"), tr("file, one number per line")});
    m_distribution->setToolTip(
        tr("Where the terms come from: drawn from a seeded distribution, pasted, or read from a file."));
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
    m_split->setToolTip(
        tr("Blocked / split-K: the terms in this many contiguous splits, partial sums added in order."));
    for (int lanes = 1; lanes <= engine::SummationParameters::kMaxLanes; lanes *= 2)
        m_lanes->addItem(QString::number(lanes), lanes);
    m_lanes->setToolTip(tr("SIMD: this many lanes each sum every L-th term, then the lanes are halved pairwise."));
    m_threads->setRange(1, engine::SummationParameters::kMaxThreads);
    m_threads->setToolTip(tr("Threads: each of this many threads sums its contiguous chunk; partials are added in "
                             "thread order. This is the order being studied, not how fast the page runs."));
    QLocale grouping;
    grouping.setNumberOptions(grouping.numberOptions() & ~QLocale::OmitGroupSeparator);
    m_spread->addItem(tr("none"), 0);
    for (int i = 1; i < 6; ++i)
        m_spread->addItem(tr("N = 100 … %1").arg(grouping.toString(kSpreadChoices[i])), kSpreadChoices[i]);
    m_spread->setToolTip(tr("How the random orders' spread grows with N: fresh terms at N = 100, 1,000, …, with "
                            "fewer shuffles for larger N so the chart takes seconds."));
    m_workers->setRange(1, 256);
    m_workers->setValue(app::defaultThreadCount());
    m_workers->setToolTip(tr("Worker threads of this computer. Changes the speed, never the numbers."));

    m_form->setContentsMargins(0, 0, 0, 0);
    m_form->addRow(tr("Terms"), m_distribution);
    m_form->addRow(tr("N"), m_n);
    m_form->addRow(tr("Scale"), m_scale);
    m_form->addRow(tr("Pasted"), m_pasted);
    m_form->addRow(tr("File"), m_fileRow);
    auto* formats = new QHBoxLayout;
    formats->addWidget(m_storage);
    formats->addWidget(new QLabel(tr("summed in")));
    formats->addWidget(m_accumulator);
    m_form->addRow(tr("Stored as"), formats);
    m_form->addRow(tr("Orders"), methodGrid);
    m_form->addRow(tr("Shuffles K"), m_shuffles);
    m_form->addRow(tr("Seed"), m_seed);
    auto* shape = new QHBoxLayout;
    shape->addWidget(new QLabel(tr("split")));
    shape->addWidget(m_split);
    shape->addWidget(new QLabel(tr("lanes")));
    shape->addWidget(m_lanes);
    shape->addWidget(new QLabel(tr("threads")));
    shape->addWidget(m_threads);
    m_form->addRow(tr("Shape"), shape);
    m_form->addRow(tr("Spread"), m_spread);
    m_form->addRow(tr("Workers"), m_workers);

    connect(m_distribution, &QComboBox::currentIndexChanged, this, &SummationForm::showSourceRows);
    setSpec(startSpec());
}

void SummationForm::reset()
{
    setBaseDir(QString());
    setSpec(startSpec());
}

QList<QWidget*> SummationForm::displayOnlyControls() const { return {m_workers}; }

int SummationForm::workerThreads() const { return m_workers->value(); }

void SummationForm::setSpec(const app::SummationSpec& spec)
{
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
    showSourceRows();
}

engine::Result<app::SummationSpec> SummationForm::specFromControls() const
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
    return spec;
}

void SummationForm::showSourceRows()
{
    const int choice = m_distribution->currentIndex();
    const bool drawn = choice < Pasted;
    // Only the rows of the chosen source are shown: no disabled boxes taking room.
    m_form->setRowVisible(m_n, drawn);
    m_form->setRowVisible(m_scale, drawn);
    m_form->setRowVisible(m_pasted, choice == Pasted);
    m_form->setRowVisible(m_fileRow, choice == FromFile);
    m_form->setRowVisible(m_spread, drawn);
    emit layoutChanged();
}

}  // namespace logitlab::ui
