// What one background load of the Explorer (Generate, Open, Paste, an experiment file) hands
// back to the UI thread: a table prepared on the worker, or why there is none. The load's own
// step reads `distribution` (or sets `error`); the common step then prepares it into `table`
// and works out its computed columns (`analysis`), so the UI thread only swaps pointers.
#pragma once

#include "app/io/logits_file.h"
#include "app/kinds/explorer_state.h"
#include "engine/sampler/explorer_chain.h"
#include "engine/sampler/prepared_distribution.h"
#include "engine/sampler/sampler_analysis.h"

#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace logitlab::ui {

struct LoadedTable {
    engine::Distribution distribution;                          // as read; moved into `table` on the worker
    std::shared_ptr<const engine::PreparedDistribution> table;  // null when the load failed
    QString error;                                              // why nothing was loaded: for the error label
    QString warning;                                            // to show once the table is in (pasted rows skipped)
    std::optional<app::ExplorerState> experiment;               // an experiment file's chain and draw settings
    engine::ExplorerChain analysedChain;                        // the chain `analysis` is for
    std::optional<engine::SamplerAnalysis> analysis;            // the table's computed columns under it
    std::optional<app::StepSummary> steps;                      // a dump's steps, scanned before a step is chosen
    std::vector<std::vector<double>> batchEntropy;  // of a [batch, steps, V] array: every batch's steps (batch 0's too)
    QString array;                                  // the array `steps` is of

    // The chain the table is shown with: an experiment brings its own, other loads keep the page's.
    const engine::ExplorerChain& chainWith(const engine::ExplorerChain& pageChain) const
    {
        return experiment ? experiment->chain : pageChain;
    }

    static LoadedTable of(engine::Distribution distribution)
    {
        LoadedTable loaded;
        loaded.distribution = std::move(distribution);
        return loaded;
    }
    static LoadedTable failure(QString message)
    {
        LoadedTable loaded;
        loaded.error = std::move(message);
        return loaded;
    }
};

}  // namespace logitlab::ui
