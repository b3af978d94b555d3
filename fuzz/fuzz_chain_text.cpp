// Fuzzes the compact chain text ("top-k=40,top-p=0.95:min-keep=1,...") under every semantics
// preset (the first byte picks it). A chain that parses must format to text that parses again
// under the same preset: that is how provenance and --set write chains back out.
#include "engine/sampler/chain_text.h"
#include "fuzz_support.h"

#include <cstdlib>

using namespace logitlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const auto& presets = engine::allSemantics();
    const engine::Semantics semantics = presets[data[0] % presets.size()];
    const auto chain = engine::parseChain(fuzz::asText(data + 1, size - 1), semantics);
    if (!chain)
        return 0;
    const std::string text = engine::formatChain(chain.value());
    if (!engine::parseChain(text, semantics))
        std::abort();  // a chain we accepted does not survive its own text form
    return 0;
}
