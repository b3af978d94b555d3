// Fuzzes vocabulary files (app::readVocabularyFile: a tokenizer.json or one token per line) and
// fitting them to a V of 64 (padding, another model's tokenizer, byte-level spelling).
#include "app/io/vocabulary_file.h"
#include "fuzz_support.h"

using namespace logitlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto table = app::readVocabularyFile(fuzz::writeInputFile(data, size, ".json"));
    if (table)
        (void)engine::fitVocabulary(*table, 64, "fuzz");
    return 0;
}
