#include "ui/models/loop_steps_model.h"

namespace logitlab::ui {

LoopStepsModel::LoopStepsModel(QObject* parent)
    : ResultTableModel(parent), m_rows(std::make_shared<std::vector<app::LoopStepRow>>())
{
    setTable(app::loopStepsTable(m_rows, false));
}

void LoopStepsModel::sync(Run main, Run branch)
{
    const engine::GenerationLoop* any = main.loop ? main.loop : branch.loop;
    const bool replay = any && any->source().teacherForced();
    if (replay != m_replay) {
        // Other columns: a new table over a new, empty vector; the runs are then inserted.
        m_replay = replay;
        m_rows = std::make_shared<std::vector<app::LoopStepRow>>();
        m_main = {};
        m_branch = {};
        setTable(app::loopStepsTable(m_rows, m_replay));
    }
    syncRun(main, m_main, 0, QStringLiteral("main"));
    syncRun(branch, m_branch, m_main.rows, QStringLiteral("branch"));
}

void LoopStepsModel::syncRun(const Run& run, Shown& shown, std::size_t offset, const QString& label)
{
    const bool replaced = !run.loop || !shown.present || shown.generation != run.generation;
    const std::size_t keep = replaced ? 0 : std::min(shown.rows, run.loop->steps().size());
    const auto first = static_cast<std::ptrdiff_t>(offset);
    if (shown.rows > keep) {
        beginRemoveRows({}, static_cast<int>(offset + keep), static_cast<int>(offset + shown.rows - 1));
        m_rows->erase(m_rows->begin() + first + static_cast<std::ptrdiff_t>(keep),
                      m_rows->begin() + first + static_cast<std::ptrdiff_t>(shown.rows));
        shown.rows = keep;
        setRowCount(m_rows->size());
        endRemoveRows();
    }
    shown.present = run.loop != nullptr;
    shown.generation = run.generation;
    if (!run.loop || run.loop->steps().size() == shown.rows)
        return;
    const std::size_t n = run.loop->steps().size();
    std::vector<app::LoopStepRow> added;
    added.reserve(n - shown.rows);
    for (std::size_t i = shown.rows; i < n; ++i)
        added.push_back(app::loopStepRow(*run.loop, i, label));
    beginInsertRows({}, static_cast<int>(offset + shown.rows), static_cast<int>(offset + n - 1));
    m_rows->insert(m_rows->begin() + first + static_cast<std::ptrdiff_t>(shown.rows),
                   std::make_move_iterator(added.begin()), std::make_move_iterator(added.end()));
    shown.rows = n;
    setRowCount(m_rows->size());
    endInsertRows();
}

}  // namespace logitlab::ui
