// The sampler chain's controls, in the order the chain runs them: temperature (slider + spin
// box), top-k, top-p, then renormalise and draw. Today the chain is the lesson's
// (engine::SamplerSettings); the widget owns the mapping between widgets and settings so a
// longer chain (min-p, typical, penalties, a semantics preset) plugs in here, not in the page.
#pragma once

#include "sampler_settings.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QDoubleSpinBox;
class QLabel;
class QSlider;
class QSpinBox;
QT_END_NAMESPACE

namespace logitlab::ui {

class ChainControls : public QWidget {
    Q_OBJECT
public:
    explicit ChainControls(QWidget* parent = nullptr);

    engine::SamplerSettings settings() const;
    // Shows `settings` without emitting settingsEdited (undo/redo and presets use this).
    void setSettings(const engine::SamplerSettings& settings);
    // The chain in words, in order: "temperature 1 → top-p 0.9 → renormalise → draw".
    QString chainText() const;

    QDoubleSpinBox* temperatureBox() const { return m_temperature; }
    QSlider* temperatureSlider() const { return m_temperatureSlider; }
    QSpinBox* topKBox() const { return m_topK; }
    QDoubleSpinBox* topPBox() const { return m_topP; }
    QLabel* greedyLabel() const { return m_greedy; }

signals:
    // The user changed a control. `temperatureOnly` lets the undo stack fold a slider drag into
    // one step.
    void settingsEdited(const engine::SamplerSettings& settings, bool temperatureOnly);

private:
    void userChanged(bool temperatureOnly);
    void updateLabels();

    QDoubleSpinBox* m_temperature;
    QSlider* m_temperatureSlider;
    QSpinBox* m_topK;
    QDoubleSpinBox* m_topP;
    QLabel* m_greedy;
    QLabel* m_order;
    bool m_updating = false;
};

}  // namespace logitlab::ui
