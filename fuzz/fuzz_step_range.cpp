// Fuzzes the step-range reader (app::readStepRange, resolveStepRange: a file distribution's
// "steps", docs/experiments.md): the input is the JSON value of "steps", read strictly and
// resolved against arrays of a few lengths, 0 and the largest included, then the estimate of
// a seed sweep over those steps (issue 34) for the range it names.
#include "app/io/json_object_reader.h"
#include "app/kinds/step_sweep_job.h"
#include "app/text/step_range.h"
#include "fuzz_support.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <cstdint>
#include <limits>

using namespace logitlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    // The value inside an object, so any JSON value (a string, a number, an object) is tried.
    const QByteArray json = QByteArray("{\"steps\": ") +
                            QByteArray(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size)) +
                            QByteArray("}");
    const QJsonDocument document = QJsonDocument::fromJson(json);
    if (!document.isObject())
        return 0;
    app::StepRange range;
    try {
        app::JsonObjectReader r(document.object(), QString());
        range = app::readStepRange(r);
    } catch (const app::JsonFieldError&) {
        return 0;
    }
    (void)app::describeStepRange(range);
    (void)app::stepRangeToJson(range);
    for (const std::uint64_t steps : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{4096},
                                      std::uint64_t{1} << 40, std::numeric_limits<std::uint64_t>::max()}) {
        const auto resolved = app::resolveStepRange(range, steps, "fuzz.npy");
        if (resolved) {
            app::SeedSweepSpec spec;
            (void)app::stepSweepEstimate(spec, resolved->second - resolved->first + 1, 2);
        }
    }
    return 0;
}
