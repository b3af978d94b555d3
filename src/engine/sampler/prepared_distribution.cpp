#include "engine/sampler/prepared_distribution.h"

#include "engine/io/logits_parser.h"
#include "engine/sampler/candidates_from_order.h"

#include <algorithm>
#include <numeric>

namespace logitlab::engine {

namespace {

// The orders' rules as comparators on ids: the key, then the lower id.
struct ByLogit {
    const Eigen::ArrayXd& logits;
    bool operator()(std::int32_t a, std::int32_t b) const
    {
        return logits[a] > logits[b] || (logits[a] == logits[b] && a < b);
    }
};

struct ByToken {
    const std::vector<std::string>& tokens;
    bool operator()(std::int32_t a, std::int32_t b) const
    {
        const auto& x = tokens[static_cast<std::size_t>(a)];
        const auto& y = tokens[static_cast<std::size_t>(b)];
        return x < y || (x == y && a < b);
    }
};

// Moves `id`, found at `from`, to where `before` now puts it: one erase and one insert, O(V).
template <class Before>
void reposition(std::vector<std::int32_t>& order, std::size_t from, std::int32_t id, Before before)
{
    order.erase(order.begin() + static_cast<std::ptrdiff_t>(from));
    order.insert(std::lower_bound(order.begin(), order.end(), id, before), id);
}

void rankFromOrder(PreparedDistribution& p)
{
    p.rank.assign(p.byLogit.size(), 0);
    for (std::size_t r = 0; r < p.byLogit.size(); ++r)
        p.rank[static_cast<std::size_t>(p.byLogit[r])] = static_cast<int>(r) + 1;
}

}  // namespace

PreparedDistribution prepareDistribution(Distribution distribution)
{
    PreparedDistribution p;
    p.distribution = std::move(distribution);
    auto& d = p.distribution;
    const auto n = static_cast<std::size_t>(d.logits.size());
    if (d.tokens.size() != n) {
        d.tokens.clear();
        d.tokens.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            d.tokens.push_back(std::to_string(i));
    }
    p.problem = validateLogits(d.logits);
    p.byLogit = idsByDescendingLogit(d.logits);
    p.byToken.resize(n);
    std::iota(p.byToken.begin(), p.byToken.end(), 0);
    std::sort(p.byToken.begin(), p.byToken.end(), ByToken{d.tokens});
    rankFromOrder(p);
    return p;
}

PreparedDistribution withLogit(const PreparedDistribution& from, std::int32_t id, double logit)
{
    PreparedDistribution p = from;
    p.distribution.logits[id] = logit;
    p.problem = validateLogits(p.distribution.logits);
    const auto at = static_cast<std::size_t>(from.rank[static_cast<std::size_t>(id)] - 1);
    reposition(p.byLogit, at, id, ByLogit{p.distribution.logits});
    rankFromOrder(p);
    return p;
}

PreparedDistribution withTokenName(const PreparedDistribution& from, std::int32_t id, std::string name)
{
    PreparedDistribution p = from;
    p.distribution.tokens[static_cast<std::size_t>(id)] = std::move(name);
    const auto at = static_cast<std::size_t>(std::find(p.byToken.begin(), p.byToken.end(), id) - p.byToken.begin());
    reposition(p.byToken, at, id, ByToken{p.distribution.tokens});
    return p;
}

}  // namespace logitlab::engine
