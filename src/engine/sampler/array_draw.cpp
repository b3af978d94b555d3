#include "engine/sampler/array_draw.h"

#include "engine/sampler/draw.h"

#include <algorithm>

namespace logitlab::engine {

ArrayDraw::ArrayDraw(CandidateArray final, Semantics semantics) : m_array(std::move(final)), m_semantics(semantics)
{
    if (semantics == Semantics::Lesson) {
        CandidateList list;
        list.reserve(m_array.size());
        for (const TokenData& t : m_array.data())
            list.push_back(Candidate{t.id, t.p, t.p});
        m_walk.emplace(std::move(list));
    } else if (semantics == Semantics::LlamaCpp || semantics == Semantics::Hf) {
        m_prefix.reserve(m_array.size());
        double cumulative = 0.0;
        for (const TokenData& t : m_array.data())
            m_prefix.push_back(cumulative += t.p);
    }
}

std::size_t ArrayDraw::lastPositive() const
{
    for (std::size_t i = m_array.size(); i-- > 0;)
        if (m_array[i].p > 0.0)
            return i;
    return m_array.size() - 1;
}

std::size_t ArrayDraw::draw(Rng& rng) const
{
    switch (m_semantics) {
    case Semantics::Lesson:
        return m_walk->indexAt(rng.nextDouble());
    case Semantics::LlamaCpp:
    case Semantics::Hf: {
        if (m_semantics == Semantics::LlamaCpp && m_array.size() == 1)
            return 0;  // llama.cpp selects a lone candidate without drawing
        const double target = rng.nextDouble() * m_prefix.back();
        // llama.cpp stops at the first running sum >= target, hf at the first > target.
        const auto found = m_semantics == Semantics::LlamaCpp
                               ? std::lower_bound(m_prefix.begin(), m_prefix.end(), target)
                               : std::upper_bound(m_prefix.begin(), m_prefix.end(), target);
        return found == m_prefix.end() ? lastPositive() : static_cast<std::size_t>(found - m_prefix.begin());
    }
    case Semantics::Vllm:
        return drawIndex(m_array, m_semantics, rng);
    }
    return 0;
}

}  // namespace logitlab::engine
