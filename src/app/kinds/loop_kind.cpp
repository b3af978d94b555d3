#include "app/kinds/loop_kind.h"

#include "app/kinds/loop_job.h"
#include "app/kinds/loop_spec.h"

#include <QObject>

namespace logitlab::app {

const ExperimentKind& loopKind()
{
    static const SpecKind<LoopSpec> kind(QStringLiteral("loop"), QObject::tr("Loop"), parseLoop,
                                         [](const LoopSpec& spec, const RunContext& c) {
                                             return loopResult(spec, runLoop(spec, c.baseDir, c.control), c.baseDir);
                                         });
    return kind;
}

}  // namespace logitlab::app
