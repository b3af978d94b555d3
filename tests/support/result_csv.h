// A run's every table as `logitlab-cli run` writes them (each under its suffix), in one string:
// what the thread-count and reproducibility tests compare.
#pragma once

#include "app/kinds/experiment_result.h"
#include "app/kinds/result_table.h"

#include <QString>

namespace logitlab::test {

inline QString resultCsv(const app::ExperimentResult& result)
{
    QString all;
    for (const auto& table : result.tables)
        all += table.suffix + QLatin1Char('\n') + app::resultTableCsv(result.provenance, table);
    return all;
}

}  // namespace logitlab::test
