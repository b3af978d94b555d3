#include "ui/forms/synthetic_vocabulary_form.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

namespace logitlab::ui {

SyntheticVocabularyForm::SyntheticVocabularyForm(QWidget* parent)
    : QWidget(parent), m_shape(new QComboBox), m_size(new QSpinBox), m_exponent(new QDoubleSpinBox),
      m_mean(new QDoubleSpinBox), m_deviation(new QDoubleSpinBox), m_seed(new QSpinBox),
      m_generate(new QPushButton(tr("&Generate"))), m_exponentLabel(new QLabel(tr("Zipf s"))),
      m_meanLabel(new QLabel(tr("Mean μ"))), m_deviationLabel(new QLabel(tr("Spread σ")))
{
    m_shape->addItem(tr("Zipf (like real text)"));
    m_shape->addItem(tr("Normal"));
    m_shape->setToolTip(tr("Zipf gives the token of rank r the logit -s·ln r; normal draws every logit from "
                           "N(μ, σ)."));
    m_size->setRange(2, engine::kMaxVocabularySize);
    m_size->setValue(32'000);
    m_size->setGroupSeparatorShown(true);
    m_size->setToolTip(tr("Vocabulary size V: real models use 32,000 to 262,144 tokens."));
    m_exponent->setRange(0.01, 10.0);
    m_exponent->setValue(1.1);
    m_exponent->setSingleStep(0.1);
    m_exponent->setToolTip(tr("How fast probability falls with rank: larger s puts more mass on the top tokens."));
    m_mean->setRange(-100.0, 100.0);
    m_mean->setToolTip(tr("The average logit; adding a constant to every logit changes nothing after softmax."));
    m_deviation->setRange(0.01, 50.0);
    m_deviation->setValue(2.0);
    m_deviation->setToolTip(tr("How spread out the logits are: larger σ makes the model more confident."));
    m_seed->setRange(0, 2'147'483'647);
    m_seed->setValue(1);
    m_seed->setToolTip(tr("The same seed gives the same vocabulary on every machine."));
    for (QLabel* l : {m_exponentLabel, m_meanLabel, m_deviationLabel})
        l->setToolTip(l == m_exponentLabel ? m_exponent->toolTip()
                      : l == m_meanLabel   ? m_mean->toolTip()
                                           : m_deviation->toolTip());

    m_generate->setObjectName(QStringLiteral("generateButton"));
    m_generate->setToolTip(tr("Replaces the table with a synthetic vocabulary (undoable)."));
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Shape"), m_shape);
    form->addRow(tr("Tokens V"), m_size);
    form->addRow(m_exponentLabel, m_exponent);
    form->addRow(m_meanLabel, m_mean);
    form->addRow(m_deviationLabel, m_deviation);
    form->addRow(tr("Seed"), m_seed);
    form->addRow(QString(), m_generate);

    connect(m_shape, &QComboBox::currentIndexChanged, this, &SyntheticVocabularyForm::updateVisibleFields);
    connect(m_generate, &QPushButton::clicked, this, [this] { emit generateRequested(spec()); });
    updateVisibleFields();
}

engine::SyntheticSpec SyntheticVocabularyForm::spec() const
{
    engine::SyntheticSpec s;
    s.shape = m_shape->currentIndex() == 0 ? engine::SyntheticSpec::Shape::Zipf : engine::SyntheticSpec::Shape::Normal;
    s.size = m_size->value();
    s.exponent = m_exponent->value();
    s.mean = m_mean->value();
    s.deviation = m_deviation->value();
    s.seed = static_cast<std::uint64_t>(m_seed->value());
    return s;
}

void SyntheticVocabularyForm::setSpec(const engine::SyntheticSpec& spec)
{
    m_shape->setCurrentIndex(spec.shape == engine::SyntheticSpec::Shape::Zipf ? 0 : 1);
    m_size->setValue(spec.size);
    m_exponent->setValue(spec.exponent);
    m_mean->setValue(spec.mean);
    m_deviation->setValue(spec.deviation);
    m_seed->setValue(static_cast<int>(spec.seed));
}

void SyntheticVocabularyForm::updateVisibleFields()
{
    const bool zipf = m_shape->currentIndex() == 0;
    m_exponent->setVisible(zipf);
    m_exponentLabel->setVisible(zipf);
    m_mean->setVisible(!zipf);
    m_meanLabel->setVisible(!zipf);
    m_deviation->setVisible(!zipf);
    m_deviationLabel->setVisible(!zipf);
}

}  // namespace logitlab::ui
