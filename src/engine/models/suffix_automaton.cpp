#include "engine/models/suffix_automaton.h"

namespace logitlab::engine {

SuffixAutomaton::SuffixAutomaton() : m_states(1) {}

void SuffixAutomaton::append(std::int32_t token)
{
    m_text.push_back(token);
    const int current = static_cast<int>(m_states.size());
    m_states.push_back(State{m_states[static_cast<std::size_t>(m_last)].length + 1, -1, {}});
    int p = m_last;
    while (p != -1 && !m_states[static_cast<std::size_t>(p)].next.count(token)) {
        m_states[static_cast<std::size_t>(p)].next[token] = current;
        p = m_states[static_cast<std::size_t>(p)].link;
    }
    if (p == -1) {
        m_states[static_cast<std::size_t>(current)].link = 0;
    } else {
        const int q = m_states[static_cast<std::size_t>(p)].next[token];
        if (m_states[static_cast<std::size_t>(p)].length + 1 == m_states[static_cast<std::size_t>(q)].length) {
            m_states[static_cast<std::size_t>(current)].link = q;
        } else {
            // q also stands for longer strings that do not end here: split off the short ones.
            const int clone = static_cast<int>(m_states.size());
            State copy = m_states[static_cast<std::size_t>(q)];
            copy.length = m_states[static_cast<std::size_t>(p)].length + 1;
            m_states.push_back(std::move(copy));
            while (p != -1) {
                auto found = m_states[static_cast<std::size_t>(p)].next.find(token);
                if (found == m_states[static_cast<std::size_t>(p)].next.end() || found->second != q)
                    break;
                found->second = clone;
                p = m_states[static_cast<std::size_t>(p)].link;
            }
            m_states[static_cast<std::size_t>(q)].link = clone;
            m_states[static_cast<std::size_t>(current)].link = clone;
        }
    }
    m_last = current;
}

}  // namespace logitlab::engine
