#include "engine/stages/no_repeat_ngram_stage.h"

#include "engine/core/number_format.h"
#include "engine/stages/stage_support.h"

#include <algorithm>
#include <set>

namespace logitlab::engine {

NoRepeatNgramStage::NoRepeatNgramStage(Semantics semantics) : StageBase(semantics)
{
    declare({"n", ParameterKind::Integer, 0, "lesson, hf: >= 0, 0 is off; not in llama.cpp or vllm"});
}

std::optional<std::string> NoRepeatNgramStage::validate() const
{
    if (semantics() == Semantics::LlamaCpp || semantics() == Semantics::Vllm)
        return name() + ": " + semanticsName(semantics()) + " has no no-repeat-ngram processor (hf only)";
    if (number("n") < 0)
        return problem("n", "hf requires a positive ngram size (0 is off), got " + formatDouble(number("n")));
    return std::nullopt;
}

void NoRepeatNgramStage::apply(CandidateArray& candidates, SamplerContext& context)
{
    const auto n = static_cast<std::size_t>(number("n"));
    const auto& h = context.history;
    if (h.size() + 1 < n)
        return;
    const std::size_t prefix = n - 1;
    std::set<std::int32_t> banned;
    for (std::size_t start = 0; start + n <= h.size(); ++start)
        if (std::equal(h.begin() + static_cast<std::ptrdiff_t>(start),
                       h.begin() + static_cast<std::ptrdiff_t>(start + prefix),
                       h.end() - static_cast<std::ptrdiff_t>(prefix)))
            banned.insert(h[start + prefix]);
    if (banned.empty())
        return;
    for (auto& t : candidates.data())
        if (banned.count(t.id)) {
            t.logit = detail::kNegInf;
            context.noteAdjusted(t.id, t.logit);
        }
    if (candidates.finiteCount() > 0)  // banning every token leaves them masked: uniform, never NaN
        candidates.dropMasked();
}

}  // namespace logitlab::engine
