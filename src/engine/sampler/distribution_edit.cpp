#include "engine/sampler/distribution_edit.h"

#include "engine/io/logits_parser.h"

#include <cmath>
#include <limits>

namespace logitlab::engine {

Distribution withTokenAppended(const Distribution& distribution, const std::string& name)
{
    Distribution d = distribution;
    const auto n = d.logits.size();
    const double lowest = n > 0 ? d.logits.minCoeff() : -std::numeric_limits<double>::infinity();
    d.logits.conservativeResize(n + 1);
    d.logits[n] = std::isfinite(lowest) ? lowest - 1.0 : 0.0;
    if (!d.tokens.empty() || n == 0)
        d.tokens.push_back(name);
    return d;
}

Result<Distribution> withoutTokens(const Distribution& distribution, const std::vector<int>& indices)
{
    const auto n = static_cast<std::size_t>(distribution.logits.size());
    std::vector<bool> gone(n, false);
    for (int i : indices)
        if (i >= 0 && static_cast<std::size_t>(i) < n)
            gone[static_cast<std::size_t>(i)] = true;
    Distribution kept;
    std::vector<double> logits;
    for (std::size_t i = 0; i < n; ++i) {
        if (gone[i])
            continue;
        if (!distribution.tokens.empty())
            kept.tokens.push_back(distribution.tokens[i]);
        logits.push_back(distribution.logits[static_cast<Eigen::Index>(i)]);
    }
    kept.logits = Eigen::Map<const Eigen::ArrayXd>(logits.data(), static_cast<Eigen::Index>(logits.size()));
    if (auto problem = validateLogits(kept.logits))
        return Error{*problem};
    return kept;
}

}  // namespace logitlab::engine
