#include "engine/stages/dry_stage.h"

#include "engine/core/number_format.h"
#include "engine/io/logits_parser.h"
#include "engine/stages/stage_support.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace logitlab::engine {

DryStage::DryStage(Semantics semantics) : StageBase(semantics)
{
    declare({"multiplier", ParameterKind::Real, 0.0, "finite, 0 is off"});
    declare({"base", ParameterKind::Real, 1.75, "finite, < 1 is off"});
    declare({"allowed-length", ParameterKind::Integer, 2, ">= 0"});
    declare({"last-n", ParameterKind::Integer, -1, "-1 = whole history, 0 = off"});
    declare({"breakers", ParameterKind::TokenList, 0, "single-token sequence breakers, ids separated by '/'"});
}

DryStage::DryStage(const DryStage& other) : StageBase(other), m_breakers(other.m_breakers) {}

DryStage& DryStage::operator=(const DryStage& other)
{
    if (this != &other) {
        StageBase::operator=(other);
        m_breakers = other.m_breakers;
        m_automaton = SuffixAutomaton();
        m_lastBreaker.reset();
    }
    return *this;
}

void DryStage::parametersChanged()
{
    m_automaton = SuffixAutomaton();  // the breaker positions depend on the breakers
    m_lastBreaker.reset();
    m_breakers.clear();
    if (text("breakers").empty())
        return;
    for (std::string_view item : detail::splitOn(text("breakers"), '/'))  // checked by setParameter
        m_breakers.insert(static_cast<std::int32_t>(*parseDouble(item)));
}

std::optional<std::string> DryStage::validate() const
{
    if (semantics() == Semantics::Hf || semantics() == Semantics::Vllm)
        return name() + ": " + semanticsName(semantics()) + " has no DRY sampler (llama.cpp only)";
    for (const char* p : {"multiplier", "base"})
        if (!std::isfinite(number(p)))
            return problem(p, "must be finite");
    if (number("allowed-length") < 0)
        return problem("allowed-length", "must be >= 0, got " + formatDouble(number("allowed-length")));
    if (number("last-n") < -1)
        return problem("last-n", "must be -1 (all), 0 (off) or more, got " + formatDouble(number("last-n")));
    return std::nullopt;
}

bool DryStage::active() const { return number("multiplier") != 0.0 && number("base") >= 1.0 && number("last-n") != 0; }

std::map<std::int32_t, std::size_t> DryStage::wholeHistoryLengths(const std::vector<std::int32_t>& h,
                                                                  std::size_t allowed)
{
    std::map<std::int32_t, std::size_t> longest;
    const auto& seen = m_automaton.text();
    if (seen.size() > h.size() || !std::equal(seen.begin(), seen.end(), h.begin())) {
        m_automaton = SuffixAutomaton();  // another history: start again
        m_lastBreaker.reset();
    }
    for (std::size_t i = m_automaton.text().size(); i < h.size(); ++i) {
        m_automaton.append(h[i]);
        if (m_breakers.count(h[i]))
            m_lastBreaker = i;
    }
    // (1) The most recent breaker caps how far back a repeat may reach.
    const std::size_t limit = m_lastBreaker ? h.size() - 1 - *m_lastBreaker : h.size();
    if (limit < allowed)
        return longest;
    // (2, 3) For each token, the longest suffix of the history that it followed before, capped.
    m_automaton.longestExtensions(
        allowed, [&](std::int32_t token, std::size_t length) { longest[token] = std::min(length, limit); });
    return longest;
}

void DryStage::apply(CandidateArray& candidates, SamplerContext& context)
{
    const auto& h = context.history;
    const auto allowed = static_cast<std::size_t>(number("allowed-length"));
    const double lastN = number("last-n");
    const std::size_t n = lastN < 0 ? h.size() : std::min(h.size(), static_cast<std::size_t>(lastN));
    if (n <= allowed)
        return;
    std::map<std::int32_t, std::size_t> longest;
    if (n == h.size() && allowed >= 1) {
        longest = wholeHistoryLengths(h, allowed);
    } else {
        // back(i): the i-th token counted from the end of the history (0 = the last one).
        const auto back = [&h](std::size_t i) { return h[h.size() - 1 - i]; };

        // (1) The most recent breaker caps how far back a repeat may reach.
        std::size_t limit = n;
        for (std::size_t i = 0; i < n; ++i)
            if (m_breakers.count(back(i))) {
                limit = i;
                break;
            }
        if (limit < allowed)
            return;

        // (2, 3) For each earlier end position k, how long the text ending there matches the text
        // ending now (capped at the limit); the token that followed it records the longest match.
        // Read backwards from the end, that length is the Z-function of the reversed window at k
        // (the longest common prefix of the reversed text and its suffix starting at k), which the
        // Z-algorithm finds for every k in one O(n) pass (the idea llama.cpp's DRY uses): a box
        // [left, right) of the latest match lets each k start from what is already known.
        std::vector<std::size_t> z(n, 0);
        for (std::size_t k = 1, left = 0, right = 0; k < n; ++k) {
            std::size_t len = k < right ? std::min(right - k, z[k - left]) : 0;
            while (k + len < n && back(k + len) == back(len))
                ++len;
            z[k] = len;
            if (k + len > right) {
                left = k;
                right = k + len;
            }
            const std::size_t capped = std::min(len, limit);
            if (capped >= allowed) {
                auto& best = longest[back(k - 1)];
                best = std::max(best, capped);
            }
        }
    }

    // (4) Penalise, with the exponent clamped so base^exponent stays finite in float.
    const double base = number("base");
    const double multiplier = number("multiplier");
    long maxExponent = 0;
    if (base > 1.000001)
        maxExponent = static_cast<long>(88.7228391 / std::log(base));
    for (auto& t : candidates.data()) {
        const auto found = longest.find(t.id);
        if (found == longest.end() || m_breakers.count(t.id))
            continue;
        long exponent = static_cast<long>(found->second) - static_cast<long>(allowed);
        if (maxExponent > 0 && exponent > maxExponent)
            exponent = maxExponent;
        if (detail::masked(t))
            continue;
        t.logit =
            detail::saturated(t.logit - detail::saturated(multiplier * std::pow(base, static_cast<double>(exponent))));
        context.noteAdjusted(t.id, t.logit);
    }
    candidates.setSorted(false);
}

}  // namespace logitlab::engine
