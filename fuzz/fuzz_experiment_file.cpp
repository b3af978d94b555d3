// Fuzzes experiment files (docs/experiments.md): reading the file, its "experiment" kind and the
// kind's strict reader (junk-risk, seed-sweep), then the checks every run makes before any work.
// Distributions read from another file are not followed (fuzz_logits_file covers that reader),
// and synthetic ones are only built up to 4,096 tokens, so that one input stays fast (the
// examples' 262,144-token files are still parsed in full).
#include "experiment_file.h"
#include "experiment_kind.h"
#include "fuzz_support.h"
#include "junk_risk_spec.h"
#include "seed_sweep_spec.h"

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
    }
    return 0;
}
