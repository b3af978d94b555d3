// The batch-invariance page: why temperature 0 still varies on a server. The kind's form and
// results (KindPage), with two views of its own: the findings in words under the summary (each
// precision's nearest tie and its kernel; the invariant plan's measured cost) and, when the
// Loop page hands over a greedy near tie, that tie explained next to the controls.
#pragma once

#include "ui/pages/kind_page.h"

QT_BEGIN_NAMESPACE
class QLabel;
QT_END_NAMESPACE

namespace logitlab::app {
struct BatchInvarianceOutcome;
}

namespace logitlab::ui {

class BatchInvarianceForm;

class BatchInvariancePage : public KindPage {
    Q_OBJECT
public:
    explicit BatchInvariancePage(QWidget* parent = nullptr);

    QString workedExample() const override;
    BatchInvarianceForm* batchForm() const { return m_form; }
    QLabel* findingsLabel() const { return m_findings; }
    // The Loop page's near tie, explained (empty until one is handed over).
    QLabel* fromLoopLabel() const { return m_fromLoop; }
    // A step's distribution from the Loop page (a greedy near tie): the one-step study, and the
    // gap between its two most likely tokens said next to the controls.
    bool acceptDistribution(const HandOff& handOff) override;
    // The outcome shown (null before a run).
    const app::BatchInvarianceOutcome* outcome() const;

private:
    void showFindings();

    BatchInvarianceForm* m_form;
    QLabel* m_findings;
    QLabel* m_fromLoop;
};

}  // namespace logitlab::ui
