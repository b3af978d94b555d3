// The Loop page's per-step table (app::loopStepsTable: the main run's steps, then the branch's)
// as a model that grows with the runs: a step added inserts its row, a rewind removes rows, so
// a run near 4,096 steps costs the UI thread per new step, not per step of the run (a model
// reset re-measured and re-laid out every row on every refresh).
#pragma once

#include "app/kinds/loop_job.h"
#include "ui/models/result_table_model.h"

#include <memory>
#include <vector>

namespace logitlab::ui {

class LoopStepsModel : public ResultTableModel {
    Q_OBJECT
public:
    explicit LoopStepsModel(QObject* parent = nullptr);

    // A run as the model is to show it: null for none; `generation` changes when the run was
    // replaced (a new loop, a new branch), not when it only gained or lost steps at its end.
    struct Run {
        const engine::GenerationLoop* loop = nullptr;
        quint64 generation = 0;
    };
    // Brings the rows up to date: a replaced run's rows are removed and inserted again, a run
    // that grew gets its new rows, a rewound one loses its last rows. A change between a
    // built-in and a replayed run (other columns) resets the model.
    void sync(Run main, Run branch);

private:
    struct Shown {
        std::size_t rows = 0;
        quint64 generation = 0;
        bool present = false;
    };
    void syncRun(const Run& run, Shown& shown, std::size_t offset, const QString& label);

    std::shared_ptr<std::vector<app::LoopStepRow>> m_rows;
    bool m_replay = false;
    Shown m_main;
    Shown m_branch;
};

}  // namespace logitlab::ui
