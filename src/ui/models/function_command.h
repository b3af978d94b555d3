// An undo step made of two closures (do, undo), so pages can make any edit undoable without a
// command class per edit. Steps with the same merge id fold into one, so dragging a slider
// is one undo step, not a hundred.
#pragma once

#include <QUndoCommand>

#include <functional>

namespace logitlab::ui {

class FunctionCommand : public QUndoCommand {
public:
    // mergeId -1: never merges.
    FunctionCommand(const QString& text, std::function<void()> redo, std::function<void()> undo, int mergeId = -1);

    void redo() override;
    void undo() override;
    int id() const override { return m_mergeId; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    std::function<void()> m_redo;
    std::function<void()> m_undo;
    int m_mergeId;
};

}  // namespace logitlab::ui
