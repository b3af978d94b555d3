// A next-token distribution as the model gives it: one logit per token, and optional names.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

namespace logitlab::engine {

struct Distribution {
    std::vector<std::string> tokens;  // empty, or one name per logit
    Eigen::ArrayXd logits;

    // The token's name, or its id in decimal when the distribution has no names.
    std::string tokenName(std::int64_t id) const
    {
        return tokens.empty() ? std::to_string(id) : tokens[static_cast<std::size_t>(id)];
    }
};

}  // namespace logitlab::engine
