#include "engine/experiments/reply_census.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace logitlab::engine {

std::optional<std::size_t> firstDifference(const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b)
{
    const auto [ia, ib] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
    if (ia == a.end() && ib == b.end())
        return std::nullopt;
    return static_cast<std::size_t>(ia - a.begin());
}

ReplyCensus countReplies(const std::vector<std::uint64_t>& seeds, const std::vector<std::vector<std::int32_t>>& replies,
                         std::size_t length)
{
    ReplyCensus census;
    // Group in sweep order: the group's index is the order of first appearance.
    std::map<std::vector<std::int32_t>, std::size_t> groupOf;
    std::vector<std::size_t> groupOfSeed(replies.size());
    std::vector<DistinctReply> groups;
    census.distinctAfter.reserve(replies.size());
    for (std::size_t i = 0; i < replies.size(); ++i) {
        const auto [it, added] = groupOf.try_emplace(replies[i], groups.size());
        if (added)
            groups.push_back({replies[i], {}, std::nullopt});
        groups[it->second].seeds.push_back(seeds[i]);
        groupOfSeed[i] = it->second;
        census.distinctAfter.push_back(groups.size());
    }
    // Most seeds first; a stable sort keeps first appearance as the tie-break.
    std::vector<std::size_t> order(groups.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&groups](std::size_t a, std::size_t b) {
        return groups[a].seeds.size() > groups[b].seeds.size();
    });
    std::vector<std::size_t> rankOf(groups.size());
    for (std::size_t r = 0; r < order.size(); ++r) {
        rankOf[order[r]] = r;
        census.replies.push_back(std::move(groups[order[r]]));
    }
    if (census.replies.empty())
        return census;
    const auto& reference = census.replies.front().tokens;
    for (std::size_t r = 1; r < census.replies.size(); ++r)
        census.replies[r].firstDifference = firstDifference(census.replies[r].tokens, reference);

    census.firstDifferenceHistogram.assign(length, 0);
    census.replyOf.reserve(replies.size());
    census.firstDifference.reserve(replies.size());
    for (std::size_t i = 0; i < replies.size(); ++i) {
        const std::size_t r = rankOf[groupOfSeed[i]];
        census.replyOf.push_back(r);
        const auto at = census.replies[r].firstDifference;
        census.firstDifference.push_back(at);
        if (at && *at < length)
            ++census.firstDifferenceHistogram[*at];
    }
    return census;
}

}  // namespace logitlab::engine
