// Fuzzes reading a logits file from disk (app::readLogitsFile: the CLI's --logits-file, the
// experiment files' "file" distributions, the GUI's Open), size and encoding checks included,
// and the binary dumps told by their content (.npy, .npz through libzip, safetensors): the
// only row, the last step, and the step scan.
#include "app/io/logits_file.h"
#include "fuzz_support.h"

using namespace logitlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QString path = fuzz::writeInputFile(data, size, ".csv");
    (void)app::readLogitsFile(path);
    app::LogitsFileRequest last;
    last.row.step = -1;
    (void)app::readLogitsFile(path, last);
    (void)app::summarizeSteps(path, {}, 0, {});
    return 0;
}
