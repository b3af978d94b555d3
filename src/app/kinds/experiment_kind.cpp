#include "app/kinds/experiment_kind.h"

#include "app/kinds/batch_invariance_spec.h"
#include "app/kinds/explorer_state.h"
#include "app/kinds/junk_risk_spec.h"
#include "app/kinds/loop_spec.h"
#include "app/kinds/seed_sweep_spec.h"
#include "app/kinds/summation_spec.h"

#include <QRegularExpression>

namespace logitlab::app {

const std::vector<const ExperimentKind*>& experimentKinds()
{
    // The one list of kinds: a new experiment adds its line here and nothing elsewhere.
    static const std::vector<const ExperimentKind*> kinds{&junkRiskKind(),        &seedSweepKind(), &summationKind(),
                                                          &batchInvarianceKind(), &explorerKind(),  &loopKind()};
    return kinds;
}

QStringList experimentKindIds()
{
    QStringList ids;
    for (const ExperimentKind* kind : experimentKinds())
        ids << kind->id();
    return ids;
}

const ExperimentKind* findExperimentKind(const QString& id)
{
    for (const ExperimentKind* kind : experimentKinds())
        if (kind->id() == id)
            return kind;
    return nullptr;
}

engine::Result<const ExperimentKind*> kindOfFile(const QJsonObject& root, const QString& source)
{
    // The Explorer's state files say what they are with "format", experiment files with
    // "experiment".
    if (!root.contains(QStringLiteral("experiment")) &&
        root.value(QStringLiteral("format")) == QLatin1String(kExplorerFormat))
        return &explorerKind();
    const QJsonValue id = root.value(QStringLiteral("experiment"));
    const ExperimentKind* kind = id.isString() ? findExperimentKind(id.toString()) : nullptr;
    if (!kind || kind == &explorerKind()) {
        QStringList ids = experimentKindIds();
        ids.removeAll(explorerKind().id());
        return engine::Error{
            QStringLiteral("%1: experiment: must be one of %2 (or an Explorer state file, \"format\": \"%3\")")
                .arg(source, ids.join(QStringLiteral(", ")), QLatin1String(kExplorerFormat))
                .toStdString()};
    }
    return kind;
}

QString sniffKindId(const QByteArray& bytes)
{
    // The value after `"key"` and a colon, when it is a short string.
    const auto valueOf = [&bytes](const QByteArray& key) -> QByteArray {
        const qsizetype at = bytes.indexOf(key);
        if (at < 0)
            return {};
        static const QRegularExpression value(QStringLiteral(R"re(^\s*:\s*"([A-Za-z0-9._-]{1,40})")re"));
        const auto match = value.match(QString::fromUtf8(bytes.mid(at + key.size(), 64)));
        return match.hasMatch() ? match.captured(1).toUtf8() : QByteArray();
    };
    if (valueOf(QByteArrayLiteral("\"format\"")) == kExplorerFormat)
        return explorerKind().id();
    const QString id = QString::fromUtf8(valueOf(QByteArrayLiteral("\"experiment\"")));
    return findExperimentKind(id) ? id : QString();
}

ExperimentResult badInputResult(const QString& kind, const QString& message)
{
    ExperimentResult result = resultOf(kind, QString(), {RunStatus::State::Failed, message});
    result.badInput = true;
    return result;
}

}  // namespace logitlab::app
