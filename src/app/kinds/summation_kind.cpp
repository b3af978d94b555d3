#include "app/kinds/summation_kind.h"

#include "app/kinds/summation_job.h"
#include "app/kinds/summation_spec.h"

#include <QObject>

namespace logitlab::app {

const ExperimentKind& summationKind()
{
    static const SpecKind<SummationSpec> kind(
        QStringLiteral("summation-order"), QObject::tr("Summation order"), parseSummation,
        [](const SummationSpec& spec, const RunContext& c) {
            return summationResult(spec, c.baseDir, runSummation(spec, c.baseDir, c.source, c.threads, c.control),
                                   c.threads);
        });
    return kind;
}

}  // namespace logitlab::app
