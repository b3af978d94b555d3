#include "engine/rng/alias_table.h"

#include <cassert>
#include <cmath>

namespace logitlab::engine {

AliasTable::AliasTable(const std::vector<double>& weights)
    : m_entries(weights.size()), m_size(static_cast<std::uint32_t>(weights.size()))
{
    assert(!weights.empty() && weights.size() <= (std::size_t{1} << 31));
    double total = 0.0;
    for (double w : weights)
        total += w;
    assert(total > 0.0 && std::isfinite(total));

    // Vose (1991): scale to mean 1, then pair each under-full column with an over-full donor.
    const double scale = static_cast<double>(m_size) / total;
    std::vector<double> scaled(weights.size());
    std::vector<std::uint32_t> small;
    std::vector<std::uint32_t> large;
    for (std::uint32_t i = 0; i < m_size; ++i) {
        scaled[i] = weights[i] * scale;
        (scaled[i] < 1.0 ? small : large).push_back(i);
    }
    const auto fill = [this](std::uint32_t column, double keep, std::uint32_t alias) {
        // Rounded to the nearest 1/2^32; a column that keeps (almost) everything aliases itself,
        // so 2^32, which does not fit the threshold, is never needed.
        const double threshold = std::round(keep * 4294967296.0);
        if (threshold >= 4294967296.0)
            m_entries[column] = {0xffffffffu, column};
        else
            m_entries[column] = {static_cast<std::uint32_t>(std::max(threshold, 0.0)), alias};
    };
    while (!small.empty() && !large.empty()) {
        const std::uint32_t s = small.back();
        small.pop_back();
        const std::uint32_t l = large.back();
        fill(s, scaled[s], l);
        scaled[l] = (scaled[l] + scaled[s]) - 1.0;  // Vose's order of operations: less rounding
        if (scaled[l] < 1.0) {
            large.pop_back();
            small.push_back(l);
        }
    }
    // What is left is full up to rounding error.
    for (std::uint32_t i : large)
        m_entries[i] = {0xffffffffu, i};
    for (std::uint32_t i : small)
        m_entries[i] = {0xffffffffu, i};
}

std::vector<double> AliasTable::probabilities() const
{
    std::vector<double> p(m_size, 0.0);
    const double column = 1.0 / static_cast<double>(m_size);
    for (std::uint32_t i = 0; i < m_size; ++i) {
        const Entry& e = m_entries[i];
        if (e.alias == i) {
            p[i] += column;
            continue;
        }
        const double keep = static_cast<double>(e.threshold) / 4294967296.0;
        p[i] += column * keep;
        p[e.alias] += column * (1.0 - keep);
    }
    return p;
}

}  // namespace logitlab::engine
