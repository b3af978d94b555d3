// The Explorer in front of a class (View > Present): its probability chart large, T / top-k /
// top-p on large sliders and the lesson's readouts in large type. The sliders drive the page's
// own boxes (so each move is the page's edit, with its undo step), and the page's edits move
// them: the window and the presentation never disagree.
#pragma once

#include <QWidget>

QT_BEGIN_NAMESPACE
class QAbstractSpinBox;
class QLabel;
class QSlider;
QT_END_NAMESPACE

namespace logitlab::ui {

class ExplorerPage;
class ProbabilityChart;

class ExplorerPresentation : public QWidget {
    Q_OBJECT
public:
    explicit ExplorerPresentation(ExplorerPage* page, QWidget* parent = nullptr);

    QSlider* temperatureSlider() const { return m_temperature; }
    QSlider* topKSlider() const { return m_topK; }
    QSlider* topPSlider() const { return m_topP; }
    QLabel* readouts() const { return m_readouts; }
    ProbabilityChart* chart() const { return m_chart; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void showPage();  // the sliders, their values and the readouts from the page

    ExplorerPage* m_page;
    ProbabilityChart* m_chart;
    QSlider* m_temperature;
    QSlider* m_topK;
    QSlider* m_topP;
    QLabel* m_temperatureValue;
    QLabel* m_topKValue;
    QLabel* m_topPValue;
    QLabel* m_readouts;
};

}  // namespace logitlab::ui
