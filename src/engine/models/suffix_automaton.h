// An online suffix automaton of a token sequence (Blumer et al., 1985): the smallest automaton
// accepting every substring, built one token at a time in amortised O(log V). DRY asks it, for the
// whole text, which tokens y have a suffix s of the text with s·y occurring somewhere earlier, and
// the longest such s: one walk up the suffix links from the last state instead of a comparison at
// every earlier position, so a decode of N tokens no longer costs N^2.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace logitlab::engine {

class SuffixAutomaton {
public:
    SuffixAutomaton();

    void append(std::int32_t token);
    const std::vector<std::int32_t>& text() const { return m_text; }

    // Calls visit(y, length) once per token y for which a suffix of the text of length >= minLength
    // followed by y occurs in the text, with the longest such length; minLength >= 1.
    template <class Visit>
    void longestExtensions(std::size_t minLength, Visit&& visit) const
    {
        std::map<std::int32_t, bool> seen;
        // States on the suffix-link path hold the text's suffixes, longest first; all strings of a
        // state share their continuations, so the first state with y gives y's longest suffix.
        for (int v = m_last; v > 0 && m_states[static_cast<std::size_t>(v)].length >= minLength;
             v = m_states[static_cast<std::size_t>(v)].link)
            for (const auto& [token, target] : m_states[static_cast<std::size_t>(v)].next)
                if (seen.try_emplace(token, true).second)
                    visit(token, m_states[static_cast<std::size_t>(v)].length);
    }

private:
    struct State {
        std::size_t length = 0;  // of the longest string the state stands for
        int link = -1;           // the state of its longest suffix in another class
        std::map<std::int32_t, int> next;
    };

    std::vector<State> m_states;
    std::vector<std::int32_t> m_text;
    int m_last = 0;
};

}  // namespace logitlab::engine
