// What counts as a junk token, and which token ids that makes junk for a given distribution.
// Junk is judged on the model's own distribution (softmax at temperature 1), before any
// decoding setting, so the same tokens are junk for every setting that is compared.
#pragma once

#include "engine/core/result.h"

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

namespace logitlab::engine {

struct JunkDefinition {
    enum class Kind {
        BelowProbability,  // p < threshold
        TailMass,          // the least likely tokens whose total probability is at most `value`
        Ids,               // an explicit list
    };
    Kind kind = Kind::BelowProbability;
    double value = 0.01;            // the threshold or the tail share
    std::vector<std::int32_t> ids;  // for Kind::Ids

    friend bool operator==(const JunkDefinition&, const JunkDefinition&) = default;
};

// "below-probability", "tail-mass", "ids" (the names experiment files use).
std::string junkKindName(JunkDefinition::Kind kind);
std::string describeJunk(const JunkDefinition& junk);

// One flag per token of `probabilities` (the T = 1 softmax). Errors name the field: an id out
// of range, a threshold or share outside [0, 1].
Result<std::vector<std::uint8_t>> junkMask(const Eigen::ArrayXd& probabilities, const JunkDefinition& junk);

}  // namespace logitlab::engine
