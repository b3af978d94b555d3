// Fuzzes reading a logits file from disk (app::readLogitsFile: the CLI's --logits-file, the
// experiment files' "file" distributions, the GUI's Open), size and encoding checks included.
#include "fuzz_support.h"
#include "logits_file.h"

using namespace logitlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    (void)app::readLogitsFile(fuzz::writeInputFile(data, size, ".csv"));
    return 0;
}
