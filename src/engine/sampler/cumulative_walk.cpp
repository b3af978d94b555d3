#include "engine/sampler/cumulative_walk.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace logitlab::engine {

CumulativeWalk::CumulativeWalk(CandidateList list) : m_list(std::move(list))
{
    assert(!m_list.empty());
    m_prefix.reserve(m_list.size());
    double sum = 0.0;
    for (const Candidate& c : m_list) {
        sum += c.p;
        m_prefix.push_back(sum);
    }
    // (2n + 2) ulps of 1, doubled again for margin: still about 1e-12 for n = 262,144.
    m_band = std::ldexp(4.0 * static_cast<double>(m_list.size()) + 4.0, -53);
}

std::size_t CumulativeWalk::walk(double uniform) const
{
    double r = uniform;
    for (std::size_t i = 0; i < m_list.size(); ++i) {
        r -= m_list[i].p;
        if (r <= 0.0)
            return i;
    }
    return m_list.size() - 1;
}

std::size_t CumulativeWalk::indexAt(double uniform) const
{
    // First prefix sum >= u; the walk stops there unless u sits within the rounding band of
    // that sum or of the one before it.
    const auto it = std::lower_bound(m_prefix.begin(), m_prefix.end(), uniform);
    const std::size_t i = static_cast<std::size_t>(it - m_prefix.begin());
    const bool nearNext = i < m_prefix.size() && m_prefix[i] - uniform <= m_band;
    const bool nearPrevious = i > 0 && uniform - m_prefix[i - 1] <= m_band;
    if (nearNext || nearPrevious || i == m_prefix.size())
        return walk(uniform);
    return i;
}

}  // namespace logitlab::engine
