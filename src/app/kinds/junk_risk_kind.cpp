#include "app/kinds/junk_risk_kind.h"

#include "app/kinds/junk_risk_job.h"
#include "app/kinds/junk_risk_spec.h"

#include <QObject>

namespace logitlab::app {

const ExperimentKind& junkRiskKind()
{
    static const SpecKind<JunkRiskSpec> kind(
        QStringLiteral("junk-risk"), QObject::tr("Junk risk"), parseJunkRisk,
        [](const JunkRiskSpec& spec, const RunContext& c) {
            return junkRiskResult(spec, c.baseDir, runJunkRisk(spec, c.baseDir, c.source, c.threads, c.control),
                                  c.threads);
        });
    return kind;
}

}  // namespace logitlab::app
