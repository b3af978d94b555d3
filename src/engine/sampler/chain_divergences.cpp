#include "engine/sampler/chain_divergences.h"

#include "engine/stages/stage_support.h"

#include <set>

namespace logitlab::engine {

namespace {

// Stages after which llama.cpp's array is sorted (its `sorted` flag set), reordered or shrunk,
// so that a token no longer sits at index == id.
bool sortsOrShrinks(const std::string& name)
{
    static const std::set<std::string> kStages{"top-k", "top-p",       "min-p",       "typical",
                                               "xtc",   "mirostat-v1", "mirostat-v2", "dynamic-temperature"};
    return kStages.count(name) > 0;
}

bool repeatsAnId(const std::string& biasText)
{
    std::set<std::string_view> seen;
    for (std::string_view item : detail::splitOn(biasText, '/')) {
        const std::string_view id = detail::trimSpaces(item.substr(0, item.find('@')));
        if (!seen.insert(id).second)
            return true;
    }
    return false;
}

}  // namespace

std::vector<std::string> llamaCppDivergences(const SamplerChain& chain)
{
    std::vector<std::string> out;
    if (chain.semantics() != Semantics::LlamaCpp)
        return out;
    std::string sorter;  // the first earlier stage that sorts or shrinks the array
    for (const SamplerStage* stage : chain.activeStages()) {
        if (stage->name() == "logit-bias" && !sorter.empty()) {
            out.push_back("logit-bias after " + sorter +
                          ": in llama.cpp itself the array keeps its stale \"sorted\" flag, so a later top-p, "
                          "min-p or the draw trusts the old order (with temperature 0 the draw gets NaN); "
                          "LogitLab re-sorts. llama.cpp's own tools put the bias first");
            if (repeatsAnId(stage->text("bias")))
                out.push_back("logit-bias lists a token twice after " + sorter +
                              ": llama.cpp itself applies only the first bias to a token that is no longer at "
                              "its own index; LogitLab adds both");
        }
        if (sorter.empty() && sortsOrShrinks(stage->name()))
            sorter = stage->name();
    }
    return out;
}

}  // namespace logitlab::engine
