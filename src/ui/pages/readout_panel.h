// The Explorer's readouts (survivors, mass removed, the cut, entropy, perplexity, the chance of
// not drawing the top token) in three columns (two on a narrow page), with a bold "greedy" line above them at T = 0.
// Painted by the widget itself, with a size that does not depend on the text: the text changes
// on every slider step, and labels sized by their text sent a layout request up to the window
// each time (5 ms of a 16 ms frame once the page was narrow). Ctrl+C or the context menu copies
// the text.
#pragma once

#include <QStringList>
#include <QWidget>

namespace logitlab::ui {

class ReadoutPanel : public QWidget {
    Q_OBJECT
public:
    explicit ReadoutPanel(QWidget* parent = nullptr);

    // Six lines, filled column by column (two per column); the greedy line shows when asked.
    void setReadouts(const QStringList& lines, bool greedy);
    QString text() const;  // every line shown, one per line

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    // Three columns when typical lines fit, else two (three rows): decided by the width alone.
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    int threeColumnWidth() const;
    int columnsFor(int width) const;
    void copy() const;

    QStringList m_lines;
    bool m_greedy = false;
};

}  // namespace logitlab::ui
