// One of the Loop page's text panes: a run's prompt (grey) and its tokens, streaming. The pane's
// document is kept in step with the run instead of being set again: new steps are appended, a
// rewind cuts the text after the last kept token, a new first divergent step restyles only the
// tokens whose marks change, and a paragraph break starts a new block, so that an edit lays out
// one paragraph rather than the whole reply (the page's 50 ms budget for the UI thread near
// 4,096 steps). A replaced run (new loop, new branch) gets a new document, which the view lays
// out lazily, a screenful first. While steps are appended the view follows the newest token,
// unless the reader has scrolled up from the end.
#pragma once

#include "engine/experiments/generation_loop.h"

#include <QString>

#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QTextBrowser;
class QTextCharFormat;
class QTextCursor;
QT_END_NAMESPACE

namespace logitlab::ui {

class LoopRunText {
public:
    explicit LoopRunText(QTextBrowser* view);

    // Shows `loop` after `prompt`. `generation` changes when the run was replaced, not when it
    // gained or lost steps at its end. The token at `divergence` is marked; in a branch
    // (`branch`) the tokens after it too. A replayed step whose pick is not the model's token
    // is underlined.
    void show(const engine::GenerationLoop& loop, quint64 generation, const QString& prompt,
              std::optional<std::size_t> divergence, bool branch);
    // The pane without a run: `html`, set once.
    void showMessage(const QString& html);
    // Marks the newest token (a highlight), for the presentation's text that a class follows.
    void setMarkNewest(bool on) { m_markNewest = on; }

private:
    QTextCharFormat tokenFormat(const engine::GenerationLoop& loop, std::size_t i) const;
    void rebuild(const engine::GenerationLoop& loop, const QString& prompt);
    void append(QTextCursor& cursor, const engine::GenerationLoop& loop);
    void restyle(const engine::GenerationLoop& loop, std::size_t from, std::size_t to);
    int tokenEnd(std::size_t i) const;

    QTextBrowser* m_view;
    const engine::GenerationLoop* m_loop = nullptr;  // null: a message (or nothing) is shown
    quint64 m_generation = 0;
    QString m_prompt;
    QString m_message;
    std::optional<std::size_t> m_divergence;
    bool m_branch = false;
    bool m_markNewest = false;
    // Per shown token: where the separator before it starts, and where the token starts.
    std::vector<int> m_separatorAt;
    std::vector<int> m_tokenAt;
};

}  // namespace logitlab::ui
