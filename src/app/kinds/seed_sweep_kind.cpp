#include "app/kinds/seed_sweep_kind.h"

#include "app/kinds/seed_sweep_job.h"
#include "app/kinds/seed_sweep_spec.h"
#include "app/kinds/sequence_sweep_job.h"
#include "app/kinds/step_sweep_job.h"

#include <QObject>

namespace logitlab::app {

const ExperimentKind& seedSweepKind()
{
    static const SpecKind<SeedSweepSpec> kind(
        QStringLiteral("seed-sweep"), QObject::tr("Seed sweep"), parseSeedSweep,
        [](const SeedSweepSpec& spec, const RunContext& c) {
            // One kind, two sources: the file's "source" says what a seed changes.
            if (spec.isSequence())
                return sequenceSweepResult(spec, runSequenceSweep(spec, c.source, c.threads, c.control), c.threads);
            if (spec.distribution.steps)  // every step of an imported file in turn
                return stepSweepResult(spec, c.baseDir, runStepSweep(spec, c.baseDir, c.source, c.threads, c.control),
                                       c.threads);
            return seedSweepResult(spec, c.baseDir, runSeedSweep(spec, c.baseDir, c.source, c.threads, c.control),
                                   c.threads);
        });
    return kind;
}

}  // namespace logitlab::app
