// Runs an experiment file in this process as `logitlab-cli run` does: reads it, applies the
// overrides (`--set key=value`), and calls its kind's run() with the file's folder as the base
// for relative paths. Shared by the kind, figure and page suites.
#pragma once

#include "app/io/experiment_file.h"
#include "app/kinds/experiment_kind.h"
#include "engine/core/result.h"

#include <QFileInfo>
#include <QStringList>

namespace logitlab::test {

inline engine::Result<app::ExperimentResult> runExperimentFile(const QString& path, const QStringList& overrides = {},
                                                               int threads = 2)
{
    auto root = app::readExperimentJson(path);
    if (!root)
        return engine::Error{root.error()};
    QJsonObject json = root.value();
    for (const QString& o : overrides) {
        auto changed = app::applyOverride(json, o);
        if (!changed)
            return engine::Error{changed.error()};
        json = changed.value();
    }
    const auto kind = app::kindOfFile(json, path);
    if (!kind)
        return engine::Error{kind.error()};
    app::RunContext context;
    context.source = path;
    context.baseDir = QFileInfo(path).absolutePath();
    context.threads = threads;
    return kind.value()->run(json, context);
}

}  // namespace logitlab::test
