#include "chain_controls.h"

#include "number_format.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>

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
      m_greedy(new QLabel(tr("<b>greedy: argmax</b>"))),
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
    m_greedy->setToolTip(tr("At temperature 0 there is no die roll: the most likely token is taken every time."));
    m_order->setWordWrap(true);
    m_order->setToolTip(tr("The order the chain runs in (the lesson's: temperature, top-k, top-p, renormalise, "
                           "draw)."));

    auto* tempRow = new QHBoxLayout;
    tempRow->addWidget(m_temperatureSlider, 1);
    tempRow->addWidget(m_temperature);
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    auto* tempLabel = new QLabel(tr("&Temperature"));
    tempLabel->setBuddy(m_temperature);
    tempLabel->setToolTip(m_temperature->toolTip());
    form->addRow(tempLabel, tempRow);
    form->addRow(QString(), m_greedy);
    auto* kLabel = new QLabel(tr("Top-&k"));
    kLabel->setBuddy(m_topK);
    kLabel->setToolTip(m_topK->toolTip());
    form->addRow(kLabel, m_topK);
    auto* pLabel = new QLabel(tr("Top-&p"));
    pLabel->setBuddy(m_topP);
    pLabel->setToolTip(m_topP->toolTip());
    form->addRow(pLabel, m_topP);
    auto* orderLabel = new QLabel(tr("Chain"));
    orderLabel->setToolTip(m_order->toolTip());
    form->addRow(orderLabel, m_order);

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

void ChainControls::setSettings(const engine::SamplerSettings& settings)
{
    m_updating = true;
    m_temperature->setValue(settings.temperature);
    m_temperatureSlider->setValue(static_cast<int>(std::lround(settings.temperature * kSliderSteps)));
    m_topK->setValue(settings.topK.value_or(0));
    m_topP->setValue(settings.topP.value_or(0.0));
    m_updating = false;
    updateLabels();
}

QString ChainControls::chainText() const
{
    const auto s = settings();
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
        emit settingsEdited(settings(), temperatureOnly);
}

void ChainControls::updateLabels()
{
    m_greedy->setVisible(m_temperature->value() == 0.0);
    m_order->setText(chainText());
}

}  // namespace logitlab::ui
