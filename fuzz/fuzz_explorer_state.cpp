// Fuzzes Explorer state files (docs/explorer.md) and what the Explorer does with one it accepts:
// the chain is checked against the vocabulary and analysed, as LogitsTableModel::analyse does
// when the file is opened.
#include "app/kinds/explorer_state.h"
#include "engine/sampler/candidates_from_order.h"
#include "fuzz_support.h"

#include <QByteArray>

using namespace logitlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray json = QByteArray::fromRawData(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const auto state = app::explorerStateFromJson(json, QStringLiteral("fuzz.json"));
    if (!state)
        return 0;
    const auto& logits = state->distribution.logits;
    if (logits.size() == 0 || engine::validateExplorerChain(state->chain, static_cast<std::size_t>(logits.size())))
        return 0;
    (void)engine::analyseExplorerChain(logits, state->chain, engine::idsByDescendingLogit(logits));
    return 0;
}
