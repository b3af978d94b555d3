#include "ui/pages/readout_panel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QKeySequence>
#include <QMenu>
#include <QPainter>

#include <algorithm>
#include <vector>

namespace logitlab::ui {

namespace {

constexpr int kColumns = 3;  // when there is room; else 2
constexpr int kLines = 6;
constexpr int kSpacing = 24;     // between columns, when there is room
constexpr int kMinSpacing = 10;  // when there is not
constexpr int kMargin = 2;

QString greedyText() { return QObject::tr("greedy: argmax (no die roll at T = 0)"); }

}  // namespace

ReadoutPanel::ReadoutPanel(QWidget* parent) : QWidget(parent)
{
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
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

int ReadoutPanel::threeColumnWidth() const
{
    // Typical lines, not the current ones: the choice of columns must not follow the text.
    const QFontMetrics metrics(font());
    const int text =
        metrics.horizontalAdvance(QStringLiteral("Mass removed by the filters: 0.0000")) +
        metrics.horizontalAdvance(QStringLiteral("Cut: llama.cpp rules keep 40 of 262,144, down to 'token'")) +
        metrics.horizontalAdvance(QStringLiteral("Perplexity (effective vocabulary): 000.00"));
    return text + (kColumns - 1) * kSpacing + 2 * kMargin;
}

int ReadoutPanel::columnsFor(int width) const { return width >= threeColumnWidth() ? kColumns : 2; }

QSize ReadoutPanel::sizeHint() const { return {threeColumnWidth(), heightForWidth(threeColumnWidth())}; }

QSize ReadoutPanel::minimumSizeHint() const { return {100, heightForWidth(100)}; }

bool ReadoutPanel::hasHeightForWidth() const { return true; }

int ReadoutPanel::heightForWidth(int width) const
{
    // The greedy line (kept free when hidden, so nothing below moves) and the rows.
    const int rows = (kLines + columnsFor(width) - 1) / columnsFor(width);
    return (1 + rows) * QFontMetrics(font()).lineSpacing() + 2 * kMargin;
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
    // Lines fill the columns top to bottom; columns are as wide as their longest line, with
    // less space between them when the panel is narrow; a line that still does not fit is
    // elided rather than drawn over its neighbour.
    const int columns = columnsFor(width());
    const int rows = (kLines + columns - 1) / columns;
    std::vector<int> wanted(static_cast<std::size_t>(columns), 0);
    int total = 0;
    for (int c = 0; c < columns; ++c) {
        for (int r = 0; r < rows; ++r)
            if (c * rows + r < m_lines.size())
                wanted[static_cast<std::size_t>(c)] =
                    std::max(wanted[static_cast<std::size_t>(c)], metrics.horizontalAdvance(m_lines[c * rows + r]));
        total += wanted[static_cast<std::size_t>(c)];
    }
    const int spacing = std::clamp((area.width() - total) / (columns - 1), kMinSpacing, kSpacing);
    int x = area.left();
    for (int c = 0; c < columns && x < area.right(); ++c) {
        const int width =
            c == columns - 1 ? area.right() - x : std::min(wanted[static_cast<std::size_t>(c)], area.right() - x);
        for (int r = 0; r < rows && c * rows + r < m_lines.size(); ++r) {
            const QRect cell(x, area.top() + (1 + r) * line, std::max(0, width), line);
            painter.drawText(cell, Qt::AlignLeft | Qt::AlignVCenter,
                             metrics.elidedText(m_lines[c * rows + r], Qt::ElideRight, cell.width()));
        }
        x += width + spacing;
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

void ReadoutPanel::copy() const { QApplication::clipboard()->setText(text()); }

}  // namespace logitlab::ui
