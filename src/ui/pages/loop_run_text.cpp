#include "ui/pages/loop_run_text.h"

#include "engine/models/word_tokens.h"

#include <QAbstractTextDocumentLayout>
#include <QColor>
#include <QFont>
#include <QScrollBar>
#include <QTextBrowser>
#include <QTextCharFormat>
#include <QTextCursor>
#include <QTextDocument>

#include <algorithm>

namespace logitlab::ui {

namespace {

// The separator before token i, as the text joins words ("\n" for a paragraph break).
std::string separatorAt(const engine::GenerationLoop& loop, std::size_t i)
{
    const auto& vocabulary = loop.vocabulary();
    const auto& steps = loop.steps();
    const std::string previous = i == 0 ? std::string("x") : vocabulary[static_cast<std::size_t>(steps[i - 1].token)];
    return engine::separatorBefore(previous, vocabulary[static_cast<std::size_t>(steps[i].token)]);
}

QString shownTokenText(const engine::GenerationLoop& loop, std::size_t i)
{
    const std::string& token = loop.vocabulary()[static_cast<std::size_t>(loop.steps()[i].token)];
    return token == engine::kParagraphToken ? QStringLiteral("¶") : QString::fromStdString(token);
}

}  // namespace

LoopRunText::LoopRunText(QTextBrowser* view) : m_view(view) {}

void LoopRunText::showMessage(const QString& html)
{
    if (!m_loop && m_message == html && !html.isEmpty())
        return;
    m_loop = nullptr;
    m_message = html;
    m_separatorAt.clear();
    m_tokenAt.clear();
    m_view->setHtml(html);
}

QTextCharFormat LoopRunText::tokenFormat(const engine::GenerationLoop& loop, std::size_t i) const
{
    QTextCharFormat format;
    const auto& step = loop.steps()[i];
    if (m_markNewest && i + 1 == loop.steps().size()) {
        format.setFontWeight(QFont::Bold);
        format.setBackground(QColor(0xff, 0xe0, 0x66));
        format.setForeground(QColor(Qt::black));
    } else if (m_divergence && i == *m_divergence) {
        format.setFontWeight(QFont::Bold);
        format.setBackground(QColor(0xff, 0xd8, 0xd8));
        format.setForeground(QColor(0xb0, 0x00, 0x20));
    } else if (step.actualKnown && !step.matches()) {
        format.setFontUnderline(true);  // a replay: not the model's token
        format.setForeground(QColor(0x6a, 0x1b, 0x9a));
    } else if (m_branch && m_divergence && i > *m_divergence) {
        format.setForeground(QColor(0xc0, 0x50, 0x00));
    }
    return format;
}

int LoopRunText::tokenEnd(std::size_t i) const
{
    return i + 1 < m_separatorAt.size() ? m_separatorAt[i + 1] : m_view->document()->characterCount() - 1;
}

void LoopRunText::show(const engine::GenerationLoop& loop, quint64 generation, const QString& prompt,
                       std::optional<std::size_t> divergence, bool branch)
{
    const std::size_t n = loop.steps().size();
    if (m_loop != &loop || m_generation != generation || m_prompt != prompt || m_branch != branch) {
        m_loop = &loop;
        m_generation = generation;
        m_prompt = prompt;
        m_branch = branch;
        m_divergence = divergence;
        rebuild(loop, prompt);
        return;
    }
    const std::size_t shownAtStart = m_tokenAt.size();
    QTextCursor cursor(m_view->document());
    cursor.beginEditBlock();
    if (n < m_tokenAt.size()) {  // rewound: cut after the last kept token
        cursor.setPosition(m_separatorAt[n]);
        cursor.movePosition(QTextCursor::End, QTextCursor::KeepAnchor);
        cursor.removeSelectedText();
        m_separatorAt.resize(n);
        m_tokenAt.resize(n);
    }
    if (divergence != m_divergence) {
        // Only the old and new divergent tokens change their mark, and in a branch the tokens
        // after the earlier of the two.
        const std::size_t shown = m_tokenAt.size();
        const std::size_t before = m_divergence.value_or(shown);
        const std::size_t now = divergence.value_or(shown);
        m_divergence = divergence;
        if (branch) {
            restyle(loop, std::min(before, now), shown);
        } else {
            restyle(loop, before, std::min(before + 1, shown));
            restyle(loop, now, std::min(now + 1, shown));
        }
    }
    // Follows the newest token, as a terminal does, unless the reader scrolled up to read.
    QScrollBar* bar = m_view->verticalScrollBar();
    const bool following = bar->value() >= bar->maximum();
    const std::size_t shownBefore = m_tokenAt.size();
    append(cursor, loop);
    // The token that was the newest is an ordinary one now; after a rewind, the last kept is new.
    if (m_markNewest && !m_tokenAt.empty() && m_tokenAt.size() != shownAtStart) {
        if (shownAtStart > 0 && shownAtStart < m_tokenAt.size())
            restyle(loop, shownAtStart - 1, shownAtStart);
        restyle(loop, m_tokenAt.size() - 1, m_tokenAt.size());
    }
    cursor.endEditBlock();
    if (following && m_tokenAt.size() > shownBefore) {
        m_view->document()->documentLayout()->documentSize();  // lays out the new lines now
        bar->setValue(bar->maximum());
    }
}

void LoopRunText::rebuild(const engine::GenerationLoop& loop, const QString& prompt)
{
    // A new document, filled before the view has it: the view then lays it out lazily (what is
    // on screen first), where refilling the shown one would lay out every paragraph at once.
    QTextDocument* old = m_view->document();
    auto* document = new QTextDocument(m_view);
    document->setUndoRedoEnabled(false);
    document->setDefaultFont(old->defaultFont());
    document->setDocumentMargin(old->documentMargin());
    document->setDefaultTextOption(old->defaultTextOption());
    m_separatorAt.clear();
    m_tokenAt.clear();
    m_message.clear();
    QTextCursor cursor(document);
    QTextCharFormat grey;
    grey.setForeground(QColor(0x88, 0x88, 0x88));
    cursor.beginEditBlock();
    cursor.insertText(prompt, grey);
    append(cursor, loop);
    cursor.endEditBlock();
    // The view deletes its own first document; the ones made here are the view's children.
    const bool ours = old->parent() == m_view;
    m_view->setDocument(document);
    if (ours)
        delete old;
}

void LoopRunText::append(QTextCursor& cursor, const engine::GenerationLoop& loop)
{
    const std::size_t n = loop.steps().size();
    if (m_tokenAt.size() >= n)
        return;
    cursor.movePosition(QTextCursor::End);
    const QTextCharFormat plain;
    for (std::size_t i = m_tokenAt.size(); i < n; ++i) {
        m_separatorAt.push_back(cursor.position());
        const std::string separator = separatorAt(loop, i);
        if (separator == "\n") {
            // A paragraph break: an empty line, as blocks of their own.
            cursor.insertBlock();
            cursor.insertBlock();
        } else if (!separator.empty()) {
            cursor.insertText(QString::fromStdString(separator), plain);
        }
        m_tokenAt.push_back(cursor.position());
        cursor.insertText(shownTokenText(loop, i), tokenFormat(loop, i));
    }
}

void LoopRunText::restyle(const engine::GenerationLoop& loop, std::size_t from, std::size_t to)
{
    QTextCursor cursor(m_view->document());
    for (std::size_t i = from; i < to; ++i) {
        cursor.setPosition(m_tokenAt[i]);
        cursor.setPosition(tokenEnd(i), QTextCursor::KeepAnchor);
        cursor.setCharFormat(tokenFormat(loop, i));
    }
}

}  // namespace logitlab::ui
