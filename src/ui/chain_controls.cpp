#include "chain_controls.h"

#include "number_format.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>

#include <algorithm>
#include <cmath>

namespace logitlab::ui {

namespace {

constexpr int kSliderSteps = 100;  // slider units per 1.0 of temperature

QString number(double v)
{
    return QString::fromStdString(engine::formatDouble(v));
}

}  // namespace

ChainControls::ChainControls(QWidget* parent)
    : QWidget(parent),
      m_temperature(new QDoubleSpinBox),
      m_temperatureSlider(new QSlider(Qt::Horizontal)),
      m_topK(new QSpinBox),
      m_topP(new QDoubleSpinBox),
      m_semantics(new QComboBox),
      m_minP(new QDoubleSpinBox),
      m_typical(new QDoubleSpinBox),
      m_greedy(new QLabel(tr("<b>greedy: argmax</b>"))),
      m_problem(new QLabel),
      m_order(new QLabel)
{
    m_temperature->setRange(0.0, 5.0);
    m_temperature->setDecimals(2);
    m_temperature->setSingleStep(0.05);
    m_temperature->setValue(1.0);
    m_temperature->setAccelerated(true);
    m_temperature->setToolTip(
        tr("Divides every logit before softmax: below 1 sharpens the distribution, above 1 flattens it, 0 takes "
           "the argmax."));
    m_temperatureSlider->setRange(0, 3 * kSliderSteps);
    m_temperatureSlider->setValue(kSliderSteps);
    m_temperatureSlider->setToolTip(m_temperature->toolTip());
    m_topK->setRange(0, 1'000'000);
    m_topK->setSpecialValueText(tr("off"));
    m_topK->setToolTip(tr("Keeps only the K most likely tokens; off keeps them all."));
    m_topP->setRange(0.0, 1.0);
    m_topP->setDecimals(3);
    m_topP->setSingleStep(0.05);
    m_topP->setSpecialValueText(tr("off"));
    m_topP->setValue(0.9);
    m_topP->setToolTip(tr("Keeps the smallest set of top tokens whose total probability exceeds P; off keeps them "
                          "all."));
    for (engine::Semantics sem : engine::allSemantics())
        m_semantics->addItem(QString::fromStdString(engine::semanticsName(sem)));
    m_semantics->setToolTip(tr("Whose rules run the chain: the order of the stages, the boundaries and the ties "
                               "of the lesson, llama.cpp, Hugging Face or vLLM."));
    for (QDoubleSpinBox* box : {m_minP, m_typical}) {
        box->setRange(0.0, 1.0);
        box->setDecimals(3);
        box->setSingleStep(0.01);
        box->setSpecialValueText(tr("off"));
    }
    m_minP->setToolTip(tr("Keeps tokens whose probability is at least min-p times the top token's; off keeps "
                          "them all."));
    m_typical->setToolTip(tr("Keeps the tokens closest to the distribution's typical surprise, up to this much "
                             "probability; off keeps them all."));
    m_problem->setStyleSheet(QStringLiteral("color: #c62828; font-weight: bold"));
    m_problem->setWordWrap(true);
    m_problem->hide();
    m_greedy->setToolTip(tr("At temperature 0 there is no die roll: the most likely token is taken every time."));
    m_order->setWordWrap(true);
    m_order->setToolTip(tr("The order the chain runs in (the lesson's: temperature, top-k, top-p, renormalise, "
                           "draw)."));

    auto* tempRow = new QHBoxLayout;
    tempRow->addWidget(m_temperatureSlider, 1);
    tempRow->addWidget(m_temperature);
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    // Every row's label carries its control's tooltip and focuses it (Alt+letter).
    const auto addRow = [form](const QString& text, QWidget* buddy, QWidget* field) {
        auto* label = new QLabel(text);
        label->setBuddy(buddy);
        label->setToolTip(buddy->toolTip());
        form->addRow(label, field);
    };
    const auto addControl = [&addRow](const QString& text, QWidget* control) { addRow(text, control, control); };
    addControl(tr("&Semantics"), m_semantics);
    auto* tempField = new QWidget;
    tempField->setLayout(tempRow);
    tempRow->setContentsMargins(0, 0, 0, 0);
    addRow(tr("&Temperature"), m_temperature, tempField);
    form->addRow(QString(), m_greedy);
    addControl(tr("Top-&k"), m_topK);
    addControl(tr("Top-&p"), m_topP);
    addControl(tr("&Min-p"), m_minP);
    addControl(tr("T&ypical"), m_typical);
    addRow(tr("Chain"), m_order, m_order);
    form->addRow(m_problem);

    connect(m_temperatureSlider, &QSlider::valueChanged, this, [this](int v) {
        if (m_updating)
            return;
        m_temperature->setValue(double(v) / kSliderSteps);  // emits through the spin box
    });
    connect(m_temperature, &QDoubleSpinBox::valueChanged, this, [this](double t) {
        const QSignalBlocker block(m_temperatureSlider);
        m_temperatureSlider->setValue(static_cast<int>(std::lround(t * kSliderSteps)));
        userChanged(true);
    });
    connect(m_topK, &QSpinBox::valueChanged, this, [this] { userChanged(false); });
    connect(m_topP, &QDoubleSpinBox::valueChanged, this, [this] { userChanged(false); });
    connect(m_minP, &QDoubleSpinBox::valueChanged, this, [this] { userChanged(false); });
    connect(m_typical, &QDoubleSpinBox::valueChanged, this, [this] { userChanged(false); });
    connect(m_semantics, &QComboBox::currentIndexChanged, this, [this] { userChanged(false); });
    updateLabels();
}

engine::SamplerSettings ChainControls::settings() const
{
    engine::SamplerSettings s;
    s.temperature = m_temperature->value();
    if (m_topK->value() > 0)
        s.topK = m_topK->value();
    if (m_topP->value() > 0.0)
        s.topP = m_topP->value();
    return s;
}

engine::ExplorerChain ChainControls::chain() const
{
    engine::ExplorerChain c;
    c.semantics = engine::allSemantics()[static_cast<std::size_t>(std::max(0, m_semantics->currentIndex()))];
    c.lesson = settings();
    if (m_minP->value() > 0.0)
        c.minP = m_minP->value();
    if (m_typical->value() > 0.0)
        c.typical = m_typical->value();
    return c;
}

void ChainControls::setChain(const engine::ExplorerChain& chain)
{
    m_updating = true;
    const auto& all = engine::allSemantics();
    m_semantics->setCurrentIndex(static_cast<int>(std::find(all.begin(), all.end(), chain.semantics) - all.begin()));
    m_temperature->setValue(chain.lesson.temperature);
    m_temperatureSlider->setValue(static_cast<int>(std::lround(chain.lesson.temperature * kSliderSteps)));
    m_topK->setValue(chain.lesson.topK.value_or(0));
    m_topP->setValue(chain.lesson.topP.value_or(0.0));
    m_minP->setValue(chain.minP.value_or(0.0));
    m_typical->setValue(chain.typical.value_or(0.0));
    m_updating = false;
    updateLabels();
}

QString ChainControls::chainText() const
{
    const auto c = chain();
    if (!c.lessonOnly())
        return QString::fromStdString(engine::semanticsName(c.semantics) + ": " + engine::describeExplorerChain(c)) +
               tr(" → renormalise → draw");
    const auto s = c.lesson;
    if (s.temperature == 0.0)
        return tr("temperature 0 → argmax (top-k and top-p have nothing to cut)");
    QStringList stages{tr("temperature %1").arg(number(s.temperature))};
    if (s.topK)
        stages << tr("top-k %1").arg(*s.topK);
    if (s.topP)
        stages << tr("top-p %1").arg(number(*s.topP));
    stages << tr("renormalise") << tr("draw");
    return stages.join(QStringLiteral(" → "));
}

void ChainControls::userChanged(bool temperatureOnly)
{
    updateLabels();
    if (!m_updating)
        emit chainEdited(chain(), temperatureOnly);
}

void ChainControls::updateLabels()
{
    m_greedy->setVisible(m_temperature->value() == 0.0);
    // A chain the preset cannot run is said next to the controls; the page keeps the last good one.
    const auto problem = engine::validateExplorerChain(chain());
    m_problem->setText(problem ? QString::fromStdString(*problem) : QString());
    m_problem->setVisible(problem.has_value());
    m_order->setText(problem ? QString() : chainText());
}

}  // namespace logitlab::ui
