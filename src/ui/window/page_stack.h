// The window's pages, one shown at a time, as wide and tall at least as the page on screen needs,
// not as the largest of all the pages (QStackedWidget's rule): the Seed sweep page's minimum
// width kept the page list at 165 px at 200% zoom on 1024 px while the Loop page was shown
// with its controls hidden.
#pragma once

#include <QStackedWidget>

namespace logitlab::ui {

class PageStack : public QStackedWidget {
    Q_OBJECT
public:
    explicit PageStack(QWidget* parent = nullptr);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
};

}  // namespace logitlab::ui
