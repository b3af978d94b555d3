#include "app/kinds/experiment_result.h"

namespace logitlab::app {

ExperimentResult resultOf(QString kind, QString name, RunStatus status)
{
    ExperimentResult result;
    result.kind = std::move(kind);
    result.name = std::move(name);
    result.status = std::move(status);
    return result;
}

const ResultTable* ExperimentResult::table(const QString& suffix) const
{
    for (const auto& t : tables)
        if (t.suffix == suffix)
            return &t;
    return nullptr;
}

}  // namespace logitlab::app
