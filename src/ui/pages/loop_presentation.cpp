#include "ui/pages/loop_presentation.h"

#include "charts/chart_style.h"
#include "charts/loop_charts.h"
#include "ui/pages/loop_page.h"

#include <QChartView>
#include <QEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QSpinBox>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace logitlab::ui {

LoopPresentation::LoopPresentation(LoopPage* page, QWidget* parent)
    : QWidget(parent), m_page(page), m_text(new QTextBrowser), m_runText(m_text), m_stepChart(new LoopStepChart(this)),
      m_stepLine(new QLabel)
{
    setFocusPolicy(Qt::StrongFocus);
    m_text->setFocusPolicy(Qt::NoFocus);  // the keys are the presentation's
    m_runText.setMarkNewest(true);
    auto* view = new QChartView(m_stepChart->chart());
    view->setRenderHint(QPainter::Antialiasing);
    m_stepLine->setText(tr("Space: step · P: play / stop · Backspace: rewind"));
    // The text over the chart, both the window's width: the step's token names need it.
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_text, 2);
    layout->addWidget(view, 3);
    layout->addWidget(m_stepLine);
    connect(page, &LoopPage::runShown, this, &LoopPresentation::showRun);
    showRun();
}

void LoopPresentation::showRun()
{
    const auto& loop = m_page->mainLoop();
    if (!loop || loop->steps().empty()) {
        m_runText.showMessage(tr("<span style='color:#888'>Press Space to generate.</span>"));
        m_stepChart->clear(tr("Press Space to generate"));
        m_chartStep = static_cast<std::size_t>(-1);
        return;
    }
    m_runText.show(*loop, m_page->mainGeneration(), m_page->promptText(*loop), std::nullopt, false);
    const auto shown = static_cast<std::size_t>(m_page->shownStepBox()->value());
    if (shown < loop->steps().size() && (shown != m_chartStep || m_page->mainGeneration() != m_chartGeneration)) {
        m_chartStep = shown;
        m_chartGeneration = m_page->mainGeneration();
        m_stepChart->setStep(loop->steps()[shown], loop->vocabulary());
        setChartFonts(m_stepChart->chart(), chartFont());
    }
}

QFont LoopPresentation::chartFont() const
{
    // Under the text's size: twelve token names fit under their bars.
    QFont f = font();
    f.setPointSizeF(font().pointSizeF() * 0.75);
    return f;
}

void LoopPresentation::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Space:
    case Qt::Key_F10:
        m_page->stepOnce();
        return;
    case Qt::Key_P:
    case Qt::Key_F8:
        if (m_page->isPlaying())
            m_page->stop();
        else
            m_page->play();
        return;
    case Qt::Key_Backspace:
    case Qt::Key_F9:
        m_page->rewindOne();
        return;
    default:
        QWidget::keyPressEvent(event);
    }
}

void LoopPresentation::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        m_text->document()->setDefaultFont(font());
        setChartFonts(m_stepChart->chart(), chartFont());
    }
}

}  // namespace logitlab::ui
