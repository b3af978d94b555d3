// The junk-risk page: the kind's form and results (KindPage), and the lesson's terms beside
// the chart, a view of the page's own: each setting's per-token junk probability q, the junk
// tokens by name, and P(at least one junk token) and P(no junk token) at a chosen N, marked on
// the chart (along a reply: each setting over the reply's whole length). The Explorer hands
// its logits here (acceptDistribution), and says when the junk definition it keeps does not fit
// them.
#pragma once

#include "engine/experiments/junk_risk.h"
#include "ui/pages/kind_page.h"

#include <vector>

QT_BEGIN_NAMESPACE
class QLabel;
class QSpinBox;
QT_END_NAMESPACE

namespace logitlab::app {
struct JunkRiskRun;
}

namespace logitlab::ui {

class JunkRiskForm;

class JunkRiskPage : public KindPage {
    Q_OBJECT
public:
    explicit JunkRiskPage(QWidget* parent = nullptr);

    // Runs on logits from elsewhere (the Explorer's table); the other parameters stay.
    bool acceptDistribution(const HandOff& handOff) override;

    JunkRiskForm* junkForm() const { return m_form; }
    // N for the highlight: 0 marks none.
    QSpinBox* highlightBox() const { return m_highlight; }
    QLabel* lessonLabel() const { return m_lessonText; }
    // The highlighted numbers as shown (empty before a run and along a reply).
    const std::vector<engine::JunkRiskHighlight>& highlights() const { return m_highlights; }
    // The run shown (null before a run).
    const app::JunkRiskRun* shownRun() const;

private:
    void showLessonTerms();  // the highlight at the chosen N, from the shown results

    JunkRiskForm* m_form;
    QSpinBox* m_highlight;
    QLabel* m_lessonText;
    std::vector<engine::JunkRiskHighlight> m_highlights;
};

}  // namespace logitlab::ui
