// The sampler chain's controls: the semantics preset (lesson, llama.cpp, hf, vllm: whose order
// and rules run the chain), temperature (slider + spin box), top-k, top-p, min-p and typical,
// and the chain as the preset will run it. The widget owns the mapping between widgets and
// engine::ExplorerChain, so further stages plug in here, not in the page.
#pragma once

#include "explorer_chain.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
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

    engine::SamplerSettings settings() const;  // the lesson's part: temperature, top-k, top-p
    engine::ExplorerChain chain() const;
    // Shows `chain` without emitting chainEdited (undo/redo and presets use this).
    void setChain(const engine::ExplorerChain& chain);
    // The chain in words, in order: "temperature 1 → top-p 0.9 → renormalise → draw".
    QString chainText() const;

    QDoubleSpinBox* temperatureBox() const { return m_temperature; }
    QSlider* temperatureSlider() const { return m_temperatureSlider; }
    QSpinBox* topKBox() const { return m_topK; }
    QDoubleSpinBox* topPBox() const { return m_topP; }
    QLabel* greedyLabel() const { return m_greedy; }
    QComboBox* semanticsBox() const { return m_semantics; }
    QDoubleSpinBox* minPBox() const { return m_minP; }
    QDoubleSpinBox* typicalBox() const { return m_typical; }
    QLabel* problemLabel() const { return m_problem; }

signals:
    // The user changed a control. `temperatureOnly` lets the undo stack fold a slider drag into
    // one step.
    void chainEdited(const engine::ExplorerChain& chain, bool temperatureOnly);

private:
    void userChanged(bool temperatureOnly);
    void updateLabels();

    QDoubleSpinBox* m_temperature;
    QSlider* m_temperatureSlider;
    QSpinBox* m_topK;
    QDoubleSpinBox* m_topP;
    QComboBox* m_semantics;
    QDoubleSpinBox* m_minP;
    QDoubleSpinBox* m_typical;
    QLabel* m_greedy;
    QLabel* m_problem;
    QLabel* m_order;
    bool m_updating = false;
};

}  // namespace logitlab::ui
