// View > Present (F5): the page on screen as a class sees it, full screen in large type. The page
// gives its own presentation view (Page::createPresentation: the Explorer's chart with large
// T / top-k / top-p sliders and its readouts, the Loop's streaming text with the newest token
// marked); any other page shows its current chart, large, redrawn after each run. Esc (or F5
// again) leaves. The window is the main window's child, so it closes with it.
#pragma once

#include <QPointer>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
QT_END_NAMESPACE

namespace logitlab::ui {

class Page;

class PresentationWindow : public QWidget {
    Q_OBJECT
public:
    // The type's size against the window's: a projector's back row reads 2x the desktop's.
    static constexpr double kFontScale = 2.0;

    PresentationWindow(Page* page, QWidget* parent);

    QWidget* content() const { return m_content; }
    Page* page() const { return m_page; }

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    QPointer<Page> m_page;
    QWidget* m_content;
};

}  // namespace logitlab::ui
