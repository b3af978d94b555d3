#include "explorer_page.h"

#include "logits_table_model.h"
#include "lesson_examples.h"
#include "number_format.h"
#include "probability_chart.h"

#include <QChartView>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

namespace logitlab::ui {

namespace {

constexpr int kSliderSteps = 100;  // slider units per 1.0 of temperature

}  // namespace

ExplorerPage::ExplorerPage(QWidget* parent)
    : Page(parent),
      m_model(new LogitsTableModel(this)),
      m_chart(nullptr),
      m_table(new QTableView),
      m_temperature(new QDoubleSpinBox),
      m_temperatureSlider(new QSlider(Qt::Horizontal)),
      m_topK(new QSpinBox),
      m_topP(new QDoubleSpinBox),
      m_readouts(new QLabel),
      m_error(new QLabel)
{
    m_model->setDistribution(engine::lessonExample());
    m_chart = new ProbabilityChart(m_model, this);

    m_temperature->setRange(0.0, 5.0);
    m_temperature->setDecimals(2);
    m_temperature->setSingleStep(0.05);
    m_temperature->setValue(1.0);
    m_temperature->setToolTip(tr("Divides every logit before softmax: below 1 sharpens, above 1 flattens, 0 is greedy."));
    m_temperatureSlider->setRange(0, 3 * kSliderSteps);
    m_temperatureSlider->setValue(kSliderSteps);
    m_temperatureSlider->setToolTip(m_temperature->toolTip());
    m_topK->setRange(0, 1'000'000);
    m_topK->setSpecialValueText(tr("off"));
    m_topK->setToolTip(tr("Keep only the K most likely tokens; off keeps them all."));
    m_topP->setRange(0.0, 1.0);
    m_topP->setDecimals(3);
    m_topP->setSingleStep(0.05);
    m_topP->setSpecialValueText(tr("off"));
    m_topP->setValue(0.9);
    m_topP->setToolTip(tr("Keep the smallest set of top tokens whose total probability exceeds P."));
    m_error->setStyleSheet(QStringLiteral("color: #b00020"));
    m_error->setWordWrap(true);
    m_error->hide();
    m_readouts->setWordWrap(true);
    m_readouts->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* tempRow = new QHBoxLayout;
    tempRow->addWidget(m_temperatureSlider, 1);
    tempRow->addWidget(m_temperature);
    auto* form = new QFormLayout;
    auto* tempLabel = new QLabel(tr("&Temperature"));
    tempLabel->setBuddy(m_temperature);
    form->addRow(tempLabel, tempRow);
    form->addRow(tr("Top-&k"), m_topK);
    form->addRow(tr("Top-&p"), m_topP);
    auto* controls = new QGroupBox(tr("Sampler"));
    auto* controlsLayout = new QVBoxLayout(controls);
    controlsLayout->addLayout(form);
    controlsLayout->addWidget(m_readouts);
    controlsLayout->addStretch();

    m_table->setModel(m_model);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setToolTip(tr("Double-click a token or logit to edit it."));

    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(controls);
    leftLayout->addWidget(m_table, 1);
    leftLayout->addWidget(m_error);

    auto* view = new QChartView(m_chart->chart());
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(420, 320);

    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(left);
    splitter->addWidget(view);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({500, 700});
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter);

    connect(m_temperatureSlider, &QSlider::valueChanged, this,
            [this](int v) { m_temperature->setValue(double(v) / kSliderSteps); });
    connect(m_temperature, &QDoubleSpinBox::valueChanged, this, [this](double t) {
        const QSignalBlocker block(m_temperatureSlider);
        m_temperatureSlider->setValue(static_cast<int>(std::lround(t * kSliderSteps)));
        applyControls();
    });
    connect(m_topK, &QSpinBox::valueChanged, this, &ExplorerPage::applyControls);
    connect(m_topP, &QDoubleSpinBox::valueChanged, this, &ExplorerPage::applyControls);
    connect(m_model, &LogitsTableModel::resultsChanged, this, &ExplorerPage::updateReadouts);
    connect(m_model, &LogitsTableModel::editRejected, this, [this](const QString& message) {
        m_error->setText(message);
        m_error->show();
        emit statusMessage(message);
    });
    connect(m_model, &LogitsTableModel::dataChanged, m_error, &QWidget::hide);
    applyControls();
}

QString ExplorerPage::title() const
{
    return tr("Explorer");
}

QChart* ExplorerPage::chart() const
{
    return m_chart->chart();
}

QAbstractItemModel* ExplorerPage::resultsModel() const
{
    return m_model;
}

app::Provenance ExplorerPage::provenance() const
{
    const auto& s = m_model->settings();
    app::Provenance p(QStringLiteral("explorer"));
    p.add(QStringLiteral("semantics"), QStringLiteral("lesson"));
    p.add(QStringLiteral("settings"), QString::fromStdString(engine::describeSettings(s)));
    QStringList logits;
    for (Eigen::Index i = 0; i < m_model->distribution().logits.size(); ++i)
        logits << QString::fromStdString(engine::formatDouble(m_model->distribution().logits[i]));
    p.add(QStringLiteral("vocabulary size"), QString::number(m_model->rowCount()));
    if (logits.size() <= 64)
        p.add(QStringLiteral("logits"), logits.join(QLatin1Char(',')));
    return p;
}

void ExplorerPage::applyControls()
{
    engine::SamplerSettings s;
    s.temperature = m_temperature->value();
    if (m_topK->value() > 0)
        s.topK = m_topK->value();
    if (m_topP->value() > 0.0)
        s.topP = m_topP->value();
    m_model->setSettings(s);
    updateReadouts();
}

QString ExplorerPage::readoutText() const
{
    const auto& survivors = m_model->survivors();
    double kept = 0.0;
    for (const auto& c : survivors)
        kept += c.pRaw;
    double entropy = 0.0;
    for (double p : m_model->probabilities())
        if (p > 0.0)
            entropy -= p * std::log(p);
    QString text = m_model->settings().temperature == 0.0 ? tr("<b>greedy: argmax</b><br>") : QString();
    text += tr("Survivors: <b>%1</b> of %2<br>Mass removed by the filters: %3<br>Entropy: %4 nats (%5 bits), "
               "perplexity %6")
                .arg(survivors.size())
                .arg(m_model->rowCount())
                .arg(QString::number(std::max(0.0, 1.0 - kept), 'f', 4))
                .arg(QString::number(entropy, 'f', 3))
                .arg(QString::number(entropy / std::log(2.0), 'f', 3))
                .arg(QString::number(std::exp(entropy), 'f', 2));
    return text;
}

void ExplorerPage::updateReadouts()
{
    m_readouts->setText(readoutText());
}

}  // namespace logitlab::ui
