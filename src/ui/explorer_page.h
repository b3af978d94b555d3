// The Distribution Explorer: a table of tokens and logits, the sampler's controls, and a chart
// of what the sampler keeps. Starts on the lesson's five-token example.
#pragma once

#include "page.h"

QT_BEGIN_NAMESPACE
class QDoubleSpinBox;
class QLabel;
class QSlider;
class QSpinBox;
class QTableView;
QT_END_NAMESPACE

namespace logitlab::ui {

class LogitsTableModel;
class ProbabilityChart;

class ExplorerPage : public Page {
    Q_OBJECT
public:
    explicit ExplorerPage(QWidget* parent = nullptr);

    QString title() const override;
    QChart* chart() const override;
    QAbstractItemModel* resultsModel() const override;
    app::Provenance provenance() const override;

    LogitsTableModel* model() const { return m_model; }
    QDoubleSpinBox* temperatureBox() const { return m_temperature; }
    QSpinBox* topKBox() const { return m_topK; }
    QDoubleSpinBox* topPBox() const { return m_topP; }
    QLabel* errorLabel() const { return m_error; }
    QString readoutText() const;

private:
    void applyControls();
    void updateReadouts();

    LogitsTableModel* m_model;
    ProbabilityChart* m_chart;
    QTableView* m_table;
    QDoubleSpinBox* m_temperature;
    QSlider* m_temperatureSlider;
    QSpinBox* m_topK;
    QDoubleSpinBox* m_topP;
    QLabel* m_readouts;
    QLabel* m_error;
};

}  // namespace logitlab::ui
