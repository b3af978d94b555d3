#include "app/kinds/explorer_kind.h"

#include "app/kinds/explorer_run.h"
#include "app/kinds/explorer_state.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QObject>
#include <QRegularExpression>

namespace logitlab::app {

namespace {

engine::Result<ExplorerState> parseState(const QJsonObject& root, const QString& source)
{
    return explorerStateFromJson(QJsonDocument(root).toJson(QJsonDocument::Compact), source);
}

// State files carry no "name": the outputs are named after the file ("lesson.json" ->
// "lesson"), with anything but letters, digits, '.', '_' and '-' replaced.
QString outputName(const QString& source)
{
    QString name = QFileInfo(source).completeBaseName();
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("_"));
    return name.isEmpty() ? QStringLiteral("explorer") : name;
}

ExperimentResult runState(const ExplorerState& state, const RunContext& context)
{
    auto run = runExplorer(state, context.source, context.control);
    if (context.control.isCancelled && context.control.isCancelled()) {
        ExperimentResult cancelled;
        cancelled.kind = QStringLiteral("explorer");
        cancelled.status = {RunStatus::State::Cancelled, QObject::tr("cancelled")};
        return cancelled;
    }
    if (!run)
        return badInputResult(QStringLiteral("explorer"), QString::fromStdString(run.error()));
    return explorerResult(std::move(run).value(), outputName(context.source), context.source);
}

}  // namespace

const ExperimentKind& explorerKind()
{
    static const SpecKind<ExplorerState> kind(QStringLiteral("explorer"), QObject::tr("Explorer"), parseState,
                                              runState);
    return kind;
}

}  // namespace logitlab::app
