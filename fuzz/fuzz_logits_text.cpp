// Fuzzes the logits text parser (one number per line, or token,logit CSV) and the CSV record
// splitter on the first line; every accepted distribution must pass validateLogits.
#include "engine/io/logits_parser.h"
#include "fuzz_support.h"

#include <cstdlib>

using namespace logitlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text = fuzz::asText(data, size);
    const auto parsed = engine::parseLogitsText(text, "fuzz.csv");
    if (parsed) {
        if (engine::validateLogits(parsed->logits))
            std::abort();  // the parser accepted logits the engine refuses
        if (!parsed->tokens.empty() && static_cast<Eigen::Index>(parsed->tokens.size()) != parsed->logits.size())
            std::abort();  // one name per logit, or none
    }
    (void)engine::splitCsvRecord(text.substr(0, text.find('\n')));
    return 0;
}
