#include "readout_panel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QKeySequence>
#include <QMenu>
#include <QPainter>

#include <algorithm>

namespace logitlab::ui {

namespace {

constexpr int kColumns = 3;
constexpr int kSpacing = 24;  // between columns
constexpr int kMargin = 2;

QString greedyText()
{
    return QObject::tr("greedy: argmax (no die roll at T = 0)");
}

}  // namespace

ReadoutPanel::ReadoutPanel(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    setFocusPolicy(Qt::ClickFocus);
    setContextMenuPolicy(Qt::DefaultContextMenu);
}

void ReadoutPanel::setReadouts(const QStringList& lines, bool greedy)
{
    if (lines == m_lines && greedy == m_greedy)
        return;
    m_lines = lines;
    m_greedy = greedy;
    setAccessibleDescription(text());
    update();  // a repaint only: the size never depends on the text
}

QString ReadoutPanel::text() const
{
    QStringList all = m_lines;
    if (m_greedy)
        all.prepend(greedyText());
    return all.join(QLatin1Char('\n'));
}

int ReadoutPanel::rows() const
{
    return 3;  // the greedy line (kept free when hidden, so nothing below moves) and two rows
}

QSize ReadoutPanel::sizeHint() const
{
    const QFontMetrics metrics(font());
    const int column = metrics.horizontalAdvance(QStringLiteral("Perplexity (effective vocabulary): 000.00"));
    return {kColumns * column + (kColumns - 1) * kSpacing + 2 * kMargin, rows() * metrics.lineSpacing() + 2 * kMargin};
}

QSize ReadoutPanel::minimumSizeHint() const
{
    return {100, sizeHint().height()};
}

void ReadoutPanel::paintEvent(QPaintEvent* /*event*/)
{
    QPainter painter(this);
    painter.setPen(palette().color(QPalette::WindowText));
    const QFontMetrics metrics(font());
    const int line = metrics.lineSpacing();
    const QRect area = rect().adjusted(kMargin, kMargin, -kMargin, -kMargin);
    if (m_greedy) {
        QFont bold = font();
        bold.setBold(true);
        painter.setFont(bold);
        painter.drawText(QRect(area.left(), area.top(), area.width(), line), Qt::AlignLeft | Qt::AlignVCenter,
                         greedyText());
        painter.setFont(font());
    }
    // Columns as wide as their longest line, the last one taking the rest; a line that does
    // not fit is elided rather than drawn over its neighbour.
    int x = area.left();
    for (int c = 0; c < kColumns; ++c) {
        int wanted = 0;
        for (int r = 0; r < 2; ++r)
            if (c * 2 + r < m_lines.size())
                wanted = std::max(wanted, metrics.horizontalAdvance(m_lines[c * 2 + r]));
        const int width = c == kColumns - 1 ? area.right() - x : std::min(wanted, area.right() - x);
        for (int r = 0; r < 2 && c * 2 + r < m_lines.size(); ++r) {
            const QRect cell(x, area.top() + (1 + r) * line, std::max(0, width), line);
            painter.drawText(cell, Qt::AlignLeft | Qt::AlignVCenter,
                             metrics.elidedText(m_lines[c * 2 + r], Qt::ElideRight, cell.width()));
        }
        x += width + kSpacing;
        if (x >= area.right())
            break;
    }
}

void ReadoutPanel::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu menu(this);
    QAction* copyAction = menu.addAction(tr("&Copy readouts"));
    copyAction->setShortcut(QKeySequence::Copy);
    connect(copyAction, &QAction::triggered, this, &ReadoutPanel::copy);
    menu.exec(event->globalPos());
}

void ReadoutPanel::keyPressEvent(QKeyEvent* event)
{
    if (event->matches(QKeySequence::Copy)) {
        copy();
        return;
    }
    QWidget::keyPressEvent(event);
}

void ReadoutPanel::copy() const
{
    QApplication::clipboard()->setText(text());
}

}  // namespace logitlab::ui
