// A distribution together with everything the Explorer derives from its tokens and logits alone
// (not from the sampler settings): whether the logits can be sampled, the order by logit, the
// order by name and each token's rank. Building it sorts the vocabulary twice, which at
// V = 262,144 is tens of milliseconds, so the Explorer builds it on a worker thread and then
// shares it read-only (std::shared_ptr<const PreparedDistribution>): the table, its undo steps
// and its sort all use the same copy.
#pragma once

#include "engine/sampler/distribution.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace logitlab::engine {

struct PreparedDistribution {
    Distribution distribution;           // one name per logit: the id in decimal where there was none
    std::optional<std::string> problem;  // validateLogits: why these logits cannot be sampled
    std::vector<std::int32_t> byLogit;   // ids by descending logit, lower id first on ties
    std::vector<std::int32_t> byToken;   // ids by name (bytewise, UTF-8 code point order), lower id first on ties
    std::vector<int> rank;               // 1-based position in byLogit, by id
};

PreparedDistribution prepareDistribution(Distribution distribution);

// One cell edited: the same as prepareDistribution of the edited distribution, but in O(V): the
// edited id is moved within the orders instead of sorting them again. Precondition: id is valid.
PreparedDistribution withLogit(const PreparedDistribution& from, std::int32_t id, double logit);
PreparedDistribution withTokenName(const PreparedDistribution& from, std::int32_t id, std::string name);

}  // namespace logitlab::engine
