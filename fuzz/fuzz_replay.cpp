// Fuzzes the replay reader (app::ImportedLogitsSource, docs/import.md "Replaying a generation"):
// the input is the model's dump (.npy, .npz, safetensors, told by content), opened as a loop
// replay with its sequences when it names them, every row decoded; then the loop's step count
// and work estimate (issue 34) for a replay of all of its steps, and the first steps read.
#include "app/kinds/imported_logits_source.h"
#include "app/kinds/loop_spec.h"
#include "fuzz_support.h"

#include <QFileInfo>

#include <vector>

using namespace logitlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QString path = fuzz::writeInputFile(data, size, ".npy");
    app::LoopSpec spec;
    spec.steps = 0;
    spec.chain = QStringLiteral("temperature=1");
    spec.replay = app::LoopReplaySpec{QFileInfo(path).fileName(), QString(), 0, std::nullopt, QString()};
    const auto source = app::ImportedLogitsSource::open(*spec.replay, QFileInfo(path).absolutePath(), {});
    if (!source)
        return 0;
    (void)app::loopStepCount(spec, *source.value());
    std::vector<double> row(source.value()->vocabSize());
    const std::size_t steps = std::min<std::size_t>(source.value()->stepCount().value_or(0), 4);
    for (std::size_t step = 0; step < steps; ++step) {
        source.value()->logits(step, {}, row.data());
        (void)source.value()->actualToken(step);
    }
    return 0;
}
