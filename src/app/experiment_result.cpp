#include "experiment_result.h"

namespace logitlab::app {

const ResultTable* ExperimentResult::table(const QString& suffix) const
{
    for (const auto& t : tables)
        if (t.suffix == suffix)
            return &t;
    return nullptr;
}

}  // namespace logitlab::app
