#include "ui/pages/loop_token_strip.h"

#include "charts/token_display.h"

#include <QAction>
#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QPen>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace logitlab::ui {

namespace {

constexpr int kPad = 4;                    // inside a chip, each side of its text
constexpr int kGap = 2;                    // between chips and rows
constexpr int kMaxChipChars = 14;          // a longer name is cut in the middle (the hover shows it whole)
constexpr double kMaxSurprisal = 3.0;      // -log10 p: below 1 in 1,000 every chip is the darkest
const QColor kSurprise{0xd9, 0x5f, 0x0e};  // dark orange: an unlikely pick
const QColor kDivergence{0xb0, 0x00, 0x20};
const QColor kReplayMiss{0x6a, 0x1b, 0x9a};

QString tokenName(const engine::GenerationLoop& loop, std::int32_t id)
{
    return shownLoopToken(loop.vocabulary()[static_cast<std::size_t>(id)]);
}

QString probabilityText(double p) { return QString::number(p, 'g', 3); }

// Pale for a pick the model expected, dark orange for a surprising one.
QColor chipColor(const QPalette& palette, double modelP)
{
    const double surprisal = modelP > 0.0 ? std::min(-std::log10(modelP), kMaxSurprisal) : kMaxSurprisal;
    const double t = 0.12 + 0.88 * surprisal / kMaxSurprisal;
    const QColor base = palette.color(QPalette::Base);
    return QColor::fromRgbF(static_cast<float>(base.redF() + (kSurprise.redF() - base.redF()) * t),
                            static_cast<float>(base.greenF() + (kSurprise.greenF() - base.greenF()) * t),
                            static_cast<float>(base.blueF() + (kSurprise.blueF() - base.blueF()) * t));
}

QColor textOn(const QColor& fill) { return fill.lightnessF() < 0.55 ? QColor(Qt::white) : QColor(Qt::black); }

}  // namespace

LoopTokenStrip::LoopTokenStrip(QWidget* parent) : QAbstractScrollArea(parent)
{
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setMouseTracking(true);
    setToolTip(QString());  // the chips have their own
    setAccessibleName(tr("Tokens of the run"));
    setWhatsThis(tr("Each generated token, pale when the model found it likely, dark orange when it found it "
                    "unlikely (p below 1 in 1,000). Hover a token for its step's candidates and cut; click to "
                    "show the step; right-click, double-click or Enter to branch there."));
}

const engine::GenerationLoop* LoopTokenStrip::loopOf(Lane lane) const
{
    return lane == Main ? m_main.loop : m_branch.loop;
}

std::size_t LoopTokenStrip::stepCount(Lane lane) const
{
    const auto* loop = loopOf(lane);
    return loop ? loop->steps().size() : 0;
}

int LoopTokenStrip::rowHeight() const { return fontMetrics().height() + 2 * kPad; }

int LoopTokenStrip::labelWidth() const
{
    if (!m_branch.loop)
        return 0;
    const QFontMetrics fm = fontMetrics();
    return std::max(fm.horizontalAdvance(tr("main")), fm.horizontalAdvance(tr("branch"))) + 2 * kPad;
}

int LoopTokenStrip::laneTop(Lane lane) const { return kGap + (lane == Main ? 0 : rowHeight() + kGap); }

QSize LoopTokenStrip::sizeHint() const
{
    const int lanes = m_branch.loop ? 2 : 1;
    const int scrollBar = horizontalScrollBar()->sizeHint().height();
    return {400, kGap + lanes * (rowHeight() + kGap) + scrollBar + 2 * frameWidth()};
}

QSize LoopTokenStrip::minimumSizeHint() const { return {100, sizeHint().height()}; }

QString LoopTokenStrip::chipText(std::size_t step, Lane lane) const
{
    const auto* loop = loopOf(lane);
    return shortTokenName(tokenName(*loop, loop->steps()[step].token), kMaxChipChars);
}

void LoopTokenStrip::setRuns(Run main, Run branch, std::optional<std::size_t> divergence)
{
    const bool lanesChanged = (branch.loop != nullptr) != (m_branch.loop != nullptr);
    const bool replaced = main.loop != m_main.loop || main.generation != m_main.generation ||
                          branch.loop != m_branch.loop || branch.generation != m_branch.generation;
    // A replaced run is measured anew; a run that only grew or shrank from its last measured step.
    std::size_t from = 0;
    if (!replaced)
        from = branch.loop ? std::min(m_measured[Main], m_measured[Branch]) : m_measured[Main];
    m_main = main;
    m_branch = branch;
    m_divergence = divergence;
    from = std::min(from, stepCount(Main));
    if (m_branch.loop)
        from = std::min(from, stepCount(Branch));
    measureFrom(from);
    if (m_current && *m_current >= std::max(stepCount(Main), stepCount(Branch)))
        m_current.reset();
    if (lanesChanged)
        updateGeometry();
    viewport()->update();
}

void LoopTokenStrip::measureFrom(std::size_t from)
{
    const std::size_t columns = std::max(stepCount(Main), stepCount(Branch));
    from = std::min(from, m_columnX.empty() ? 0 : m_columnX.size() - 1);
    m_columnX.resize(columns + 1);
    if (from == 0)
        m_columnX[0] = 0;
    const QFontMetrics fm = fontMetrics();
    for (std::size_t i = from; i < columns; ++i) {
        int width = 0;
        for (const Lane lane : {Main, Branch})
            if (i < stepCount(lane))
                width = std::max(width, fm.horizontalAdvance(chipText(i, lane)));
        m_columnX[i + 1] = m_columnX[i] + width + 2 * kPad + kGap;
    }
    m_measured[Main] = stepCount(Main);
    m_measured[Branch] = stepCount(Branch);
    updateScrollRange();
}

void LoopTokenStrip::updateScrollRange()
{
    const int content = m_columnX.empty() ? 0 : m_columnX.back();
    QScrollBar* bar = horizontalScrollBar();
    const int room = viewport()->width() - labelWidth();
    bar->setRange(0, std::max(0, content - room));
    bar->setPageStep(std::max(1, room));
    bar->setSingleStep(fontMetrics().averageCharWidth() * 4);
}

QRect LoopTokenStrip::chipRect(std::size_t step, Lane lane) const
{
    if (step >= stepCount(lane) || step + 1 >= m_columnX.size())
        return {};
    const int x = labelWidth() + m_columnX[step] - horizontalScrollBar()->value();
    return {x, laneTop(lane), m_columnX[step + 1] - m_columnX[step] - kGap, rowHeight()};
}

std::optional<LoopTokenStrip::Hit> LoopTokenStrip::hitAt(QPoint pos) const
{
    if (m_columnX.size() < 2 || pos.x() < labelWidth())
        return std::nullopt;
    const int x = pos.x() - labelWidth() + horizontalScrollBar()->value();
    const auto it = std::upper_bound(m_columnX.begin(), m_columnX.end(), x);
    if (it == m_columnX.begin() || it == m_columnX.end())
        return std::nullopt;
    const auto step = static_cast<std::size_t>(it - m_columnX.begin() - 1);
    for (const Lane lane : {Main, Branch})
        if (chipRect(step, lane).contains(pos))
            return Hit{step, lane};
    return std::nullopt;
}

QString LoopTokenStrip::describe(std::size_t step, Lane lane) const
{
    const auto* loop = loopOf(lane);
    if (!loop || step >= loop->steps().size())
        return {};
    const auto& s = loop->steps()[step];
    const auto escaped = [&](std::int32_t id) { return tokenName(*loop, id).toHtmlEscaped(); };
    QString html = tr("<b>%1step %2</b>: '%3'%4, p after the chain %5, the model's p %6 (rank %7)")
                       .arg(lane == Branch ? tr("Branch, ") : QString())
                       .arg(step)
                       .arg(escaped(s.token))
                       .arg(s.forced ? tr(" (forced)") : QString())
                       .arg(probabilityText(s.probability))
                       .arg(probabilityText(s.modelProbability))
                       .arg(s.rank);
    html += QStringLiteral("<table cellspacing='0' cellpadding='1'><tr><th align='left'>%1</th><th "
                           "align='right'>%2</th><th align='right'>%3</th></tr>")
                .arg(tr("candidate"), tr("model p"), tr("after chain"));
    const std::size_t shown = std::min<std::size_t>(s.top.size(), kMenuCandidates);
    for (std::size_t i = 0; i < shown; ++i) {
        const auto& c = s.top[i];
        QString marks;
        if (c.id == s.token)
            marks += tr(" ◀ pick");
        if (s.actual >= 0 && c.id == s.actual)
            marks += s.actualKnown ? tr(" ◆ model's") : tr(" ◆ argmax");
        html += QStringLiteral("<tr><td>%1%2</td><td align='right'>%3</td><td align='right'>%4</td></tr>")
                    .arg(escaped(c.id), marks, probabilityText(c.modelP),
                         c.finalP > 0.0 ? probabilityText(c.finalP) : tr("cut"));
    }
    html += QStringLiteral("</table>");
    html += tr("%1 survivors; the chain cut %2 of the model's probability; entropy %3 bits.")
                .arg(s.survivors)
                .arg(probabilityText(s.cutMass))
                .arg(s.entropyBits, 0, 'f', 2);
    if (s.actual >= 0)
        html += QStringLiteral("<br>") +
                tr("Model's token%1: '%2' (the model's p %3, rank %4, after the chain %5): the pick %6.")
                    .arg(s.actualKnown ? QString() : tr(" (unknown: the argmax)"))
                    .arg(escaped(s.actual))
                    .arg(probabilityText(s.actualModelProbability))
                    .arg(s.actualRank)
                    .arg(s.actualCut ? tr("cut") : probabilityText(s.actualProbability))
                    .arg(s.matches() ? tr("matches") : tr("differs"));
    if (lane == Main)
        html += QStringLiteral("<br><i>%1</i>").arg(tr("Click: show this step. Right-click or Enter: branch here."));
    return html;
}

QMenu* LoopTokenStrip::branchMenu(std::size_t step, QWidget* parent)
{
    auto* menu = new QMenu(parent);
    if (step >= stepCount(Main))
        return menu;
    const auto& loop = *m_main.loop;
    const auto& s = loop.steps()[step];
    menu->addSection(tr("Branch at step %1").arg(step));
    // A replay's history is the model's own tokens whatever is picked: only the draws can change.
    if (!loop.source().teacherForced()) {
        int listed = 0;
        for (const auto& c : s.top) {
            if (c.id == s.token)
                continue;
            if (++listed > kMenuCandidates)
                break;
            auto* action = menu->addAction(tr("Force '%1' (model p %2%3)")
                                               .arg(tokenName(loop, c.id))
                                               .arg(probabilityText(c.modelP))
                                               .arg(c.finalP > 0.0 ? QString() : tr(", cut by the chain")));
            const std::int32_t id = c.id;
            connect(action, &QAction::triggered, this, [this, step, id] { emit branchRequested(step, id); });
        }
    }
    auto* reseed = menu->addAction(tr("Reseed the draws here"));
    connect(reseed, &QAction::triggered, this, [this, step] { emit branchRequested(step, std::nullopt); });
    return menu;
}

void LoopTokenStrip::openBranchMenu(std::size_t step, QPoint globalPos)
{
    if (step >= stepCount(Main))
        return;
    QMenu* menu = branchMenu(step, this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(globalPos);
}

void LoopTokenStrip::setCurrentStep(std::optional<std::size_t> step)
{
    if (step == m_current)
        return;
    m_current = step;
    if (step)
        ensureVisible(*step);
    viewport()->update();
}

void LoopTokenStrip::ensureVisible(std::size_t step)
{
    if (step + 1 >= m_columnX.size())
        return;
    QScrollBar* bar = horizontalScrollBar();
    const int room = viewport()->width() - labelWidth();
    const int left = m_columnX[step];
    const int right = m_columnX[step + 1];
    if (left < bar->value())
        bar->setValue(left);
    else if (right > bar->value() + room)
        bar->setValue(right - room);
}

void LoopTokenStrip::paintEvent(QPaintEvent* /*event*/)
{
    QPainter painter(viewport());
    const QPalette pal = palette();
    painter.fillRect(viewport()->rect(), pal.color(QPalette::Window));
    const int offset = horizontalScrollBar()->value();
    const int visibleFrom = offset;
    const int visibleTo = offset + viewport()->width();
    if (m_columnX.size() >= 2) {
        auto first = static_cast<std::size_t>(std::max<std::ptrdiff_t>(
            0, std::upper_bound(m_columnX.begin(), m_columnX.end(), visibleFrom) - m_columnX.begin() - 1));
        for (std::size_t i = first; i + 1 < m_columnX.size() && m_columnX[i] < visibleTo; ++i) {
            for (const Lane lane : {Main, Branch}) {
                if (i >= stepCount(lane))
                    continue;
                const auto& s = loopOf(lane)->steps()[i];
                const QRect r = chipRect(i, lane);
                // Before the divergence the branch is the main run again: shown faded.
                const bool same = lane == Branch && (!m_divergence || i < *m_divergence);
                painter.setOpacity(same ? 0.35 : 1.0);
                const QColor fill = chipColor(pal, s.modelProbability);
                painter.fillRect(r, fill);
                painter.setPen(textOn(fill));
                painter.drawText(r.adjusted(kPad, 0, -kPad, 0), Qt::AlignVCenter | Qt::AlignLeft, chipText(i, lane));
                if (s.actualKnown && !s.matches()) {
                    painter.fillRect(QRect(r.left(), r.bottom() - 2, r.width(), 3), kReplayMiss);
                }
                if (s.forced) {
                    QPen pen(pal.color(QPalette::Text), 1.5, Qt::DashLine);
                    painter.setPen(pen);
                    painter.drawRect(QRectF(r).adjusted(0.75, 0.75, -0.75, -0.75));
                }
                if (m_divergence && i == *m_divergence) {
                    painter.setPen(QPen(kDivergence, 2));
                    painter.drawRect(QRectF(r).adjusted(1, 1, -1, -1));
                }
                painter.setOpacity(1.0);
            }
            if (m_current && i == *m_current) {
                const QRect column = chipRect(i, Main).united(chipRect(i, Branch)).adjusted(-1, -1, 1, 1);
                painter.setPen(QPen(pal.color(QPalette::Highlight), 2));
                painter.drawRect(QRectF(column).adjusted(0.5, 0.5, -0.5, -0.5));
            }
        }
    }
    if (const int labels = labelWidth(); labels > 0) {
        painter.fillRect(QRect(0, 0, labels, viewport()->height()), pal.color(QPalette::Window));
        painter.setPen(pal.color(QPalette::WindowText));
        for (const Lane lane : {Main, Branch})
            painter.drawText(QRect(0, laneTop(lane), labels - kPad, rowHeight()), Qt::AlignVCenter | Qt::AlignRight,
                             lane == Main ? tr("main") : tr("branch"));
    }
}

bool LoopTokenStrip::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        if (const auto hit = hitAt(help->pos()))
            QToolTip::showText(help->globalPos(), describe(hit->step, hit->lane), viewport(),
                               chipRect(hit->step, hit->lane));
        else
            QToolTip::showText(help->globalPos(), whatsThis(), viewport());
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

void LoopTokenStrip::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton)
        if (const auto hit = hitAt(event->position().toPoint())) {
            setCurrentStep(hit->step);
            emit stepChosen(hit->step);
            return;
        }
    QAbstractScrollArea::mousePressEvent(event);
}

void LoopTokenStrip::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (const auto hit = hitAt(event->position().toPoint()); hit && hit->lane == Main)
        openBranchMenu(hit->step, event->globalPosition().toPoint());
}

void LoopTokenStrip::contextMenuEvent(QContextMenuEvent* event)
{
    std::optional<std::size_t> step;
    if (event->reason() == QContextMenuEvent::Mouse) {
        if (const auto hit = hitAt(viewport()->mapFrom(this, event->pos())); hit && hit->lane == Main)
            step = hit->step;
    } else {
        step = m_current;
    }
    if (step) {
        setCurrentStep(step);
        emit stepChosen(*step);
        openBranchMenu(*step, event->globalPos());
    }
}

void LoopTokenStrip::keyPressEvent(QKeyEvent* event)
{
    const std::size_t count = stepCount(Main);
    if (count == 0)
        return QAbstractScrollArea::keyPressEvent(event);
    std::optional<std::size_t> to;
    const std::size_t at = m_current.value_or(count - 1);
    switch (event->key()) {
    case Qt::Key_Left:
        to = at > 0 ? at - 1 : 0;
        break;
    case Qt::Key_Right:
        to = std::min(at + 1, count - 1);
        break;
    case Qt::Key_Home:
        to = 0;
        break;
    case Qt::Key_End:
        to = count - 1;
        break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        openBranchMenu(at, viewport()->mapToGlobal(chipRect(at, Main).bottomLeft()));
        return;
    default:
        return QAbstractScrollArea::keyPressEvent(event);
    }
    setCurrentStep(to);
    emit stepChosen(*to);
}

void LoopTokenStrip::wheelEvent(QWheelEvent* event)
{
    // A plain wheel scrolls the strip sideways: it has no other direction to go.
    const QPoint delta = event->angleDelta();
    const int steps = delta.x() != 0 ? delta.x() : delta.y();
    if (steps == 0 || horizontalScrollBar()->maximum() == 0) {
        event->ignore();
        return;
    }
    // 120 units are one notch: a notch moves one single step, a touchpad's smaller deltas a part.
    QScrollBar* bar = horizontalScrollBar();
    bar->setValue(bar->value() - steps * bar->singleStep() / 120);
    event->accept();
}

void LoopTokenStrip::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateScrollRange();
}

void LoopTokenStrip::changeEvent(QEvent* event)
{
    QAbstractScrollArea::changeEvent(event);
    // Zoom (the application font) changes every chip's width and the rows' height.
    if (event->type() == QEvent::FontChange) {
        measureFrom(0);
        updateGeometry();
    }
}

}  // namespace logitlab::ui
