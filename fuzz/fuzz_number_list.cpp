// Fuzzes the CLI's comma lists: --logits (parseNumberList, then validateLogits as the CLI does),
// --tokens (parseTokenList), --probs (logitsFromProbabilities) and a single number (parseDouble).
#include "cli/chain_options.h"
#include "cli/command_line.h"
#include "engine/io/logits_parser.h"
#include "fuzz_support.h"

#include <QString>

using namespace logitlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text = fuzz::asText(data, size);
    if (const auto values = engine::parseNumberList(text, "logits")) {
        const Eigen::ArrayXd logits =
            Eigen::Map<const Eigen::ArrayXd>(values->data(), static_cast<Eigen::Index>(values->size()));
        (void)engine::validateLogits(logits);
    }
    (void)engine::parseTokenList(text);
    (void)engine::parseDouble(text);
    try {
        (void)cli::logitsFromProbabilities(QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())));
    } catch (const cli::UsageError&) {
        // the expected way to refuse a list
    }
    return 0;
}
