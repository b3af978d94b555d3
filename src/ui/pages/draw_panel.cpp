#include "ui/pages/draw_panel.h"

#include "engine/rng/rng_factory.h"

#include <QComboBox>
#include <QFormLayout>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>

#include <algorithm>

namespace logitlab::ui {

DrawPanel::DrawPanel(QWidget* parent)
    : QGroupBox(tr("Draw"), parent), m_count(new QSpinBox), m_seed(new QSpinBox), m_rng(new QComboBox),
      m_button(new QPushButton(tr("&Draw")))
{
    m_count->setObjectName(QStringLiteral("drawCount"));
    m_seed->setObjectName(QStringLiteral("drawSeed"));
    m_rng->setObjectName(QStringLiteral("drawRng"));
    m_count->setRange(1, 10'000'000);
    m_count->setValue(1000);
    m_count->setGroupSeparatorShown(true);
    m_count->setToolTip(tr("How many tokens to draw from the survivors."));
    m_seed->setRange(0, 2'147'483'647);
    m_seed->setValue(42);
    m_seed->setToolTip(tr("The same seed and generator give the same draws, here and in the lesson's code."));
    for (const auto& name : engine::rngNames())
        m_rng->addItem(QString::fromStdString(name));
    m_rng->setToolTip(tr("The random generator: mulberry32 is the lesson's, so its draws match the lesson."));
    m_button->setToolTip(tr("Draw N tokens with this seed and compare the counts with N × p."));
    auto* layout = new QFormLayout(this);
    layout->addRow(tr("Draws N"), m_count);
    layout->addRow(tr("Seed"), m_seed);
    layout->addRow(tr("Generator"), m_rng);
    layout->addRow(QString(), m_button);
    connect(m_button, &QPushButton::clicked, this, &DrawPanel::drawRequested);
    connect(m_count, &QSpinBox::valueChanged, this, &DrawPanel::settingsChanged);
    connect(m_seed, &QSpinBox::valueChanged, this, &DrawPanel::settingsChanged);
    connect(m_rng, &QComboBox::currentTextChanged, this, &DrawPanel::settingsChanged);
}

int DrawPanel::count() const { return m_count->value(); }

quint64 DrawPanel::seed() const { return static_cast<quint64>(m_seed->value()); }

QString DrawPanel::rng() const { return m_rng->currentText(); }

void DrawPanel::setSettings(const QString& rng, quint64 seed, qint64 count)
{
    if (rng == this->rng() && seed == this->seed() && count == this->count())
        return;
    {
        const QSignalBlocker blockRng(m_rng), blockSeed(m_seed), blockCount(m_count);
        m_rng->setCurrentText(rng);
        m_seed->setValue(static_cast<int>(std::min<quint64>(seed, 2'147'483'647)));
        m_count->setValue(static_cast<int>(std::min<qint64>(count, 10'000'000)));
    }
    emit settingsChanged();
}

void DrawPanel::setDrawing(bool drawing) { m_button->setEnabled(!drawing); }

}  // namespace logitlab::ui
