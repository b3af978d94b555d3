// A layout that places its items left to right and starts a new line when the next one does not
// fit: a row of check boxes or buttons that stays one line at 100% zoom and wraps at 200% on a
// 1024 px projector, instead of forcing the window wider than the screen. Its minimum width is
// its widest item's; its height follows the width (heightForWidth).
#pragma once

#include <QLayout>
#include <QList>
#include <QStyle>

namespace logitlab::ui {

class FlowLayout : public QLayout {
public:
    explicit FlowLayout(QWidget* parent = nullptr);
    ~FlowLayout() override;

    void addItem(QLayoutItem* item) override;
    int count() const override;
    QLayoutItem* itemAt(int index) const override;
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override;
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect& rect) override;

private:
    // Lays the items out in `rect` (moving them only when `apply`); returns the height used.
    int arrange(const QRect& rect, bool apply) const;
    int gap(QStyle::PixelMetric metric) const;

    QList<QLayoutItem*> m_items;
    int m_width = 0;  // the width last laid out at
};

}  // namespace logitlab::ui
