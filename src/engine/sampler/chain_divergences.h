// Where a chain reaches behaviour of llama.cpp itself that LogitLab does not reproduce (docs/
// semantics.md, "Where llama.cpp's own code diverges"): a logit bias placed after a stage that
// sorts or shrinks the array. llama.cpp's tools always put the bias first, but LogitLab's chain
// editor and --chain can put it anywhere. Shown as warnings by `candidates --compare` and the
// Explorer; the results themselves follow LogitLab's rules.
#pragma once

#include "engine/sampler/sampler_chain.h"

#include <string>
#include <vector>

namespace logitlab::engine {

// One line per divergence the chain reaches under llama.cpp's rules (none for other presets).
std::vector<std::string> llamaCppDivergences(const SamplerChain& chain);

}  // namespace logitlab::engine
