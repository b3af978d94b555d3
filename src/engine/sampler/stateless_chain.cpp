#include "engine/sampler/stateless_chain.h"

#include "engine/sampler/chain_evaluation.h"
#include "engine/sampler/chain_text.h"
#include "engine/sampler/semantics.h"

namespace logitlab::engine {

Result<SamplerChain> parseStatelessChain(const std::string& semantics, const std::string& text,
                                         const std::string& purpose)
{
    const auto preset = parseSemantics(semantics);
    if (!preset)
        return Error{"semantics: unknown preset '" + semantics + "'"};
    auto chain = parseChain(text, *preset);
    if (!chain)
        return Error{chain.error()};
    if (chain->stateful())
        return Error{"chain: '" + text +
                     "' has stages whose state changes after every draw (mirostat, XTC, penalties over the history); " +
                     purpose};
    return chain;
}

Decoder decoderFromChain(std::string label, const SamplerChain& chain)
{
    // Each call runs its own copy: a chain holds scratch state and the decoder may be shared.
    return Decoder{std::move(label), semanticsName(chain.semantics()) + ": " + formatChain(chain, true),
                   [chain](const Eigen::ArrayXd& logits) {
                       SamplerChain copy = chain;
                       SamplerContext context;
                       return evaluateChain(copy, logits, context);
                   }};
}

}  // namespace logitlab::engine
