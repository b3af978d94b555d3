// The Loop in front of a class (View > Present): the run's text in large type, following and
// marking the newest token, beside the shown step's distribution. Space steps once, P plays or
// stops, Backspace rewinds one step; the page does the work (its run, its branch), so the window
// and the presentation show the same run.
#pragma once

#include "ui/pages/loop_run_text.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QTextBrowser;
QT_END_NAMESPACE

namespace logitlab::ui {

class LoopPage;
class LoopStepChart;

class LoopPresentation : public QWidget {
    Q_OBJECT
public:
    explicit LoopPresentation(LoopPage* page, QWidget* parent = nullptr);

    QTextBrowser* text() const { return m_text; }
    LoopStepChart* stepChart() const { return m_stepChart; }

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void showRun();
    QFont chartFont() const;

    LoopPage* m_page;
    QTextBrowser* m_text;
    LoopRunText m_runText;
    LoopStepChart* m_stepChart;
    QLabel* m_stepLine;
    std::size_t m_chartStep = static_cast<std::size_t>(-1);
    quint64 m_chartGeneration = 0;
};

}  // namespace logitlab::ui
