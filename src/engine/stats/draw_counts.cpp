#include "engine/stats/draw_counts.h"

#include "engine/sampler/sample.h"

#include <unordered_map>

namespace logitlab::engine {

DrawCounts drawCounts(const CandidateList& list, std::uint64_t n, Rng& rng, const std::function<bool()>& stop)
{
    std::unordered_map<std::int32_t, std::size_t> position;
    position.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); ++i)
        position.emplace(list[i].id, i);
    DrawCounts out;
    out.counts.assign(list.size(), 0);
    for (std::uint64_t i = 0; i < n; ++i) {
        if ((i & 0xffff) == 0 && i > 0 && stop && stop())
            break;
        ++out.counts[position.at(sample(list, rng))];
        ++out.draws;
    }
    return out;
}

}  // namespace logitlab::engine
