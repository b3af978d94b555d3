// A word-wrapped label that asks for the height of all its lines at its width. QLabel's minimum
// height for wrapped text is one line's, and splitters use minimum sizes, not heightForWidth:
// at 200% zoom the Loop's divergence sentence (three lines) was cut to one and a half.
#pragma once

#include <QLabel>

namespace logitlab::ui {

class WrappedLabel : public QLabel {
    Q_OBJECT
public:
    explicit WrappedLabel(QWidget* parent = nullptr);

    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    int m_laidOutWidth = -1;  // the width the minimum height was last given for
};

}  // namespace logitlab::ui
