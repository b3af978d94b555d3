#include "engine/experiments/junk_definition.h"

#include "engine/core/number_format.h"

#include <algorithm>
#include <numeric>

namespace logitlab::engine {

std::string junkKindName(JunkDefinition::Kind kind)
{
    switch (kind) {
    case JunkDefinition::Kind::BelowProbability:
        return "below-probability";
    case JunkDefinition::Kind::TailMass:
        return "tail-mass";
    case JunkDefinition::Kind::Ids:
        return "ids";
    }
    return "?";
}

std::string describeJunk(const JunkDefinition& junk)
{
    std::string text = junkKindName(junk.kind);
    if (junk.kind != JunkDefinition::Kind::Ids)
        return text + " " + formatDouble(junk.value);
    text += " ";
    for (std::size_t i = 0; i < junk.ids.size(); ++i)
        text += (i ? "," : "") + std::to_string(junk.ids[i]);
    return text;
}

Result<std::vector<std::uint8_t>> junkMask(const Eigen::ArrayXd& probabilities, const JunkDefinition& junk)
{
    const auto n = static_cast<std::size_t>(probabilities.size());
    std::vector<std::uint8_t> mask(n, 0);
    switch (junk.kind) {
    case JunkDefinition::Kind::BelowProbability:
        if (!(junk.value >= 0.0 && junk.value <= 1.0))
            return Error{"junk.threshold: must be in [0, 1], got " + formatDouble(junk.value)};
        for (std::size_t i = 0; i < n; ++i)
            mask[i] = probabilities[static_cast<Eigen::Index>(i)] < junk.value;
        break;
    case JunkDefinition::Kind::TailMass: {
        if (!(junk.value >= 0.0 && junk.value <= 1.0))
            return Error{"junk.mass: must be in [0, 1], got " + formatDouble(junk.value)};
        // Least likely first; among equals the higher id counts as less likely, the mirror of
        // the candidates' order (ties: lower id first).
        std::vector<std::int32_t> order(n);
        std::iota(order.begin(), order.end(), 0);
        std::sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) {
            return probabilities[a] < probabilities[b] || (probabilities[a] == probabilities[b] && a > b);
        });
        double total = 0.0;
        for (std::int32_t id : order) {
            total += probabilities[id];
            if (total > junk.value)
                break;
            mask[static_cast<std::size_t>(id)] = 1;
        }
        break;
    }
    case JunkDefinition::Kind::Ids:
        for (std::size_t i = 0; i < junk.ids.size(); ++i) {
            const std::int32_t id = junk.ids[i];
            if (id < 0 || static_cast<std::size_t>(id) >= n)
                return Error{"junk.ids." + std::to_string(i) + ": token id " + std::to_string(id) +
                             " is outside the vocabulary (0.." + std::to_string(n - 1) + ")"};
            mask[static_cast<std::size_t>(id)] = 1;
        }
        break;
    }
    return mask;
}

}  // namespace logitlab::engine
