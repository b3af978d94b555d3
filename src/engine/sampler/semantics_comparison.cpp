#include "engine/sampler/semantics_comparison.h"

namespace logitlab::engine {

SemanticsComparison compareSemanticsExplained(const Eigen::Ref<const Eigen::ArrayXd>& logits,
                                              const ExplorerChain& chain)
{
    SemanticsComparison out;
    out.results = compareSemantics(logits, chain);
    for (Semantics s : allSemantics()) {
        ExplorerChain under = chain;
        under.semantics = s;
        under.stages.order.clear();  // as compareSemantics runs it: each preset in its own order
        out.orders.push_back(describeExplorerChain(under));
    }
    out.differences = presetDifferences(out.results, toChainSettings(chain), logits, !chain.context.empty());
    return out;
}

}  // namespace logitlab::engine
