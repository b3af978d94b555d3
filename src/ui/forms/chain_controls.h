// The sampler chain's controls: the semantics preset (lesson, llama.cpp, hf, vllm: whose rules
// run the chain) and its arithmetic (exact or the library's float32), temperature (slider + spin box), top-k, top-p,
// then every further stage of the zoo on three tabs (truncation; penalties and the context they look at; adaptive
// stages), the logit bias, and the chain's order, which the user can change by drag and drop. The widget owns the
// mapping between widgets and engine::ExplorerChain, so the page never touches a stage.
#pragma once

#include "engine/sampler/explorer_chain.h"

#include <QWidget>

#include <map>
#include <memory>
#include <string>
#include <vector>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSlider;
class QSpinBox;
class QStackedWidget;
class QTabBar;
QT_END_NAMESPACE

namespace logitlab::ui {

class ChainOrderList;

class ChainControls : public QWidget {
    Q_OBJECT
public:
    explicit ChainControls(QWidget* parent = nullptr);

    engine::SamplerSettings settings() const;  // the lesson's part: temperature, top-k, top-p
    engine::ExplorerChain chain() const;
    // Shows `chain` without emitting chainEdited (undo/redo and presets use this).
    void setChain(const engine::ExplorerChain& chain);
    // The table's token names, for the token fields (context, logit bias, DRY breakers): they
    // accept and show names, or #id. Shared, so a table the page replaces stays alive while used.
    void setTokenNames(std::shared_ptr<const std::vector<std::string>> names);
    // The chain in words, in order: "temperature 1 → top-p 0.9 → renormalise → draw".
    QString chainText() const;

    QDoubleSpinBox* temperatureBox() const { return m_temperature; }
    QSlider* temperatureSlider() const { return m_temperatureSlider; }
    QSpinBox* topKBox() const { return m_topK; }
    QDoubleSpinBox* topPBox() const { return m_topP; }
    QLabel* greedyLabel() const { return m_greedy; }
    QComboBox* semanticsBox() const { return m_semantics; }
    // Checked: the cuts are decided as the preset's library computes them (float32).
    QCheckBox* arithmeticBox() const { return m_arithmetic; }
    // The box of a setting by its engine name ("min-p", "xtc-probability", ...).
    QDoubleSpinBox* stageBox(const std::string& name) const;
    QDoubleSpinBox* minPBox() const { return stageBox("min-p"); }
    QDoubleSpinBox* typicalBox() const { return stageBox("typical"); }
    QLineEdit* contextEdit() const { return m_context; }
    QLineEdit* logitBiasEdit() const { return m_logitBias; }
    QLineEdit* dryBreakersEdit() const { return m_dryBreakers; }
    ChainOrderList* orderList() const { return m_orderList; }
    QPushButton* presetOrderButton() const { return m_presetOrder; }
    QTabBar* stageTabs() const { return m_tabs; }
    QLabel* problemLabel() const { return m_problem; }
    QLabel* orderLabel() const { return m_order; }  // the chain in words, and any divergence warning

signals:
    // The user changed a control. `temperatureOnly` lets the undo stack fold a slider drag into
    // one step.
    void chainEdited(const engine::ExplorerChain& chain, bool temperatureOnly);

private:
    QWidget* buildStageTab(int group);
    void userChanged(bool temperatureOnly);
    void tokenFieldEdited(QLineEdit* edit);
    void showTokenFields();
    void updateLabels();
    void showProblem(const QString& message);

    QDoubleSpinBox* m_temperature;
    QSlider* m_temperatureSlider;
    QSpinBox* m_topK;
    QDoubleSpinBox* m_topP;
    QComboBox* m_semantics;
    QCheckBox* m_arithmetic;
    std::string m_arithmeticChoice;                  // as the chain or the user gave it ("" is the preset's default)
    std::map<std::string, QDoubleSpinBox*> m_boxes;  // by engine field name
    std::map<std::string, QLabel*> m_boxLabels;
    QLineEdit* m_context;
    QLineEdit* m_logitBias;
    QLineEdit* m_dryBreakers;
    QTabBar* m_tabs;
    QStackedWidget* m_stack;
    ChainOrderList* m_orderList;
    QPushButton* m_presetOrder;
    QLabel* m_greedy;
    QLabel* m_problem;
    QLabel* m_order;
    bool m_updating = false;

    // The token fields as last accepted (ids; the stage's spelling for the bias and breakers) and
    // the user's order (empty: the preset's).
    std::vector<std::int32_t> m_contextIds;
    std::string m_biasSpelling;
    std::string m_breakerSpelling;
    std::vector<std::string> m_customOrder;
    std::shared_ptr<const std::vector<std::string>> m_names;
};

}  // namespace logitlab::ui
