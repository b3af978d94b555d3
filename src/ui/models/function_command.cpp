#include "ui/models/function_command.h"

namespace logitlab::ui {

FunctionCommand::FunctionCommand(const QString& text, std::function<void()> redo, std::function<void()> undo,
                                 int mergeId)
    : QUndoCommand(text), m_redo(std::move(redo)), m_undo(std::move(undo)), m_mergeId(mergeId)
{
}

void FunctionCommand::redo() { m_redo(); }

void FunctionCommand::undo() { m_undo(); }

bool FunctionCommand::mergeWith(const QUndoCommand* other)
{
    // Same id: keep our undo (the state before the first step) and take the latest redo.
    const auto* next = static_cast<const FunctionCommand*>(other);
    m_redo = next->m_redo;
    return true;
}

}  // namespace logitlab::ui
