// Edits of a whole distribution that make a new one: a token added below the least likely one,
// and tokens removed by index. The Explorer runs them on a worker for large vocabularies.
#pragma once

#include "engine/core/result.h"
#include "engine/sampler/distribution.h"

#include <string>
#include <vector>

namespace logitlab::engine {

// A copy with one more token, named `name`, whose logit is one below the lowest one (0 when
// the distribution is empty or its lowest logit is -inf).
Distribution withTokenAppended(const Distribution& distribution, const std::string& name);

// A copy without the tokens at `indices` (any order; repeats and indices out of range are
// ignored). Fails, with validateLogits' reason, when what is left cannot be sampled.
Result<Distribution> withoutTokens(const Distribution& distribution, const std::vector<int>& indices);

}  // namespace logitlab::engine
