#include "app/kinds/batch_invariance_kind.h"

#include "app/kinds/batch_invariance_job.h"
#include "app/kinds/batch_invariance_spec.h"

#include <QObject>

namespace logitlab::app {

const ExperimentKind& batchInvarianceKind()
{
    static const SpecKind<BatchInvarianceSpec> kind(
        QStringLiteral("batch-invariance"), QObject::tr("Batch invariance"), parseBatchInvariance,
        [](const BatchInvarianceSpec& spec, const RunContext& c) {
            return batchInvarianceResult(
                spec, c.baseDir, runBatchInvariance(spec, c.baseDir, c.source, c.threads, c.control), c.threads);
        });
    return kind;
}

}  // namespace logitlab::app
