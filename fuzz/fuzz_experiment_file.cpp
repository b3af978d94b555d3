// Fuzzes experiment files (docs/experiments.md): reading the file, its "experiment" kind and the
// kind's strict reader (every kind's: junk-risk, seed-sweep, summation-order, batch-invariance,
// loop, the Explorer's), then the checks every run makes before any work, the work and memory
// estimates of issue 34 included.
// Distributions read from another file are not followed (fuzz_logits_file covers that reader),
// and synthetic ones are only built up to 4,096 tokens, so that one input stays fast (the
// examples' 262,144-token files are still parsed in full).
#include "app/io/experiment_file.h"
#include "app/kinds/batch_invariance_job.h"
#include "app/kinds/experiment_kind.h"
#include "app/kinds/junk_risk_spec.h"
#include "app/kinds/loop_spec.h"
#include "app/kinds/seed_sweep_spec.h"
#include "app/kinds/summation_job.h"
#include "engine/models/builtin_model.h"
#include "engine/models/word_tokens.h"
#include "fuzz_support.h"

#include <QDir>
#include <QFileInfo>

using namespace logitlab;

namespace {

bool quickToResolve(const app::DistributionSpec& d)
{
    using Kind = app::DistributionSpec::Kind;
    return d.kind != Kind::File && ((d.kind != Kind::Zipf && d.kind != Kind::Normal) || d.vocabulary <= 4096);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QString path = fuzz::writeInputFile(data, size, ".json");
    const auto root = app::readExperimentJson(path);
    if (!root)
        return 0;
    const auto kind = app::kindOfFile(root.value(), path);
    if (!kind)
        return 0;
    (void)kind.value()->check(root.value(), path);  // every kind's strict reader, the Explorer's too
    const QString baseDir = QFileInfo(path).absolutePath();
    if (kind.value()->id() == QLatin1String("junk-risk")) {
        const auto spec = app::parseJunkRisk(root.value(), path);
        if (spec && quickToResolve(spec->distribution))
            (void)app::toParameters(spec.value(), baseDir);
    } else if (kind.value()->id() == QLatin1String("seed-sweep")) {
        const auto spec = app::parseSeedSweep(root.value(), path);
        if (spec && quickToResolve(spec->distribution))
            (void)app::toSeedSweepInput(spec.value(), baseDir, path);
    } else if (kind.value()->id() == QLatin1String("summation-order")) {
        const auto spec = app::parseSummation(root.value(), path);
        if (spec && spec->file.isEmpty())
            if (const auto parameters = app::toParameters(spec.value(), baseDir))
                (void)app::summationEstimate(parameters.value(), 4);
    } else if (kind.value()->id() == QLatin1String("batch-invariance")) {
        if (const auto spec = app::parseBatchInvariance(root.value(), path))
            (void)app::batchInvarianceEstimate(spec.value(), 4);
    } else if (kind.value()->id() == QLatin1String("loop")) {
        const auto spec = app::parseLoop(root.value(), path);
        if (spec && !spec->replay)
            if (const auto chain = app::loopChain(spec.value()))
                (void)app::loopEstimate(spec.value(), static_cast<std::size_t>(spec->steps),
                                        engine::builtinModel()->vocabSize(),
                                        engine::wordTokens(spec->prompt.toStdString()).size(), chain.value());
    }
    return 0;
}
