// A page's current chart drawn as a picture at the widget's size, fonts in points for a
// projector (3x a figure's): the presentation of pages without a view of their own. Redrawn when
// resized and after each of the page's runs; the page's chart on screen is left as it was.
#pragma once

#include <QImage>
#include <QPointer>
#include <QWidget>

namespace logitlab::ui {

class Page;

class ChartPicture : public QWidget {
    Q_OBJECT
public:
    explicit ChartPicture(Page* page, QWidget* parent = nullptr);

    // Draws the page's chart again (its tab, its last run).
    void redraw();
    const QImage& picture() const { return m_picture; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    QPointer<Page> m_page;
    QImage m_picture;
};

}  // namespace logitlab::ui
