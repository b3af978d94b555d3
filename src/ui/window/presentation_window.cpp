#include "ui/window/presentation_window.h"

#include "ui/pages/chart_picture.h"
#include "ui/pages/page.h"

#include <QKeyEvent>
#include <QLabel>
#include <QVBoxLayout>

namespace logitlab::ui {

PresentationWindow::PresentationWindow(Page* page, QWidget* parent)
    : QWidget(parent, Qt::Window), m_page(page), m_content(nullptr)
{
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("%1 — LogitLab presentation").arg(page->title()));
    QFont large = font();
    large.setPointSizeF(large.pointSizeF() * kFontScale);
    setFont(large);
    setAutoFillBackground(true);

    auto* title = new QLabel(page->title());
    QFont bold = large;
    bold.setBold(true);
    title->setFont(bold);
    m_content = page->createPresentation();
    if (!m_content)
        m_content = new ChartPicture(page);
    auto* hint = new QLabel(tr("Esc: leave the presentation"));
    hint->setStyleSheet(QStringLiteral("color: #777"));
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() / 2);
    hint->setFont(small);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(title);
    layout->addWidget(m_content, 1);
    layout->addWidget(hint);
    // Focus to the content, so its keys (the Loop's Space) work at once.
    m_content->setFocus();
}

void PresentationWindow::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape || event->key() == Qt::Key_F5) {
        close();
        return;
    }
    QWidget::keyPressEvent(event);
}

}  // namespace logitlab::ui
