#include "engine/stages/penalties_stage.h"

#include "engine/core/number_format.h"
#include "engine/stages/stage_support.h"

#include <cmath>
#include <limits>
#include <unordered_map>

namespace logitlab::engine {

PenaltiesStage::PenaltiesStage(Semantics semantics) : StageBase(semantics)
{
    const bool windowed = semantics == Semantics::LlamaCpp || semantics == Semantics::Lesson;
    declare({"last-n", ParameterKind::Integer, windowed ? 64.0 : -1.0,
             "lesson, llama.cpp: tokens looked at, -1 = all, 0 = off; hf, vllm: always all (-1)"});
    declare({"repeat", ParameterKind::Real, 1.0, "> 0, 1 is off"});
    declare({"frequency", ParameterKind::Real, 0.0, "finite (vllm: [-2, 2]); not in hf"});
    declare({"presence", ParameterKind::Real, 0.0, "finite (vllm: [-2, 2]); not in hf"});
}

std::optional<std::string> PenaltiesStage::validate() const
{
    const double lastN = number("last-n");
    const double repeat = number("repeat");
    if (!std::isfinite(repeat) || repeat <= 0.0)
        return problem("repeat", "must be > 0 and finite, got " + formatDouble(repeat));
    for (const char* p : {"frequency", "presence"}) {
        const double v = number(p);
        if (!std::isfinite(v))
            return problem(p, "must be finite");
        if (semantics() == Semantics::Hf && v != 0.0)
            return problem(p, std::string("hf has no ") + p + " penalty (repetition only)");
        if (semantics() == Semantics::Vllm && (v < -2.0 || v > 2.0))
            return problem(p, "vllm requires a value in [-2, 2], got " + formatDouble(v));
    }
    switch (semantics()) {
    case Semantics::Lesson:
    case Semantics::LlamaCpp:
        if (lastN < -1)
            return problem("last-n", "must be -1 (all), 0 (off) or more, got " + formatDouble(lastN));
        break;
    case Semantics::Hf:
    case Semantics::Vllm:
        if (lastN != -1)
            return problem("last-n", semanticsName(semantics()) + " penalises the whole history; it has no window");
        break;
    }
    return std::nullopt;
}

bool PenaltiesStage::active() const
{
    return number("last-n") != 0 &&
           (number("repeat") != 1.0 || number("frequency") != 0.0 || number("presence") != 0.0);
}

void PenaltiesStage::apply(CandidateArray& candidates, SamplerContext& context)
{
    const auto& history = context.history;
    const double lastN = number("last-n");
    const std::size_t window = lastN < 0 ? history.size() : std::min(history.size(), static_cast<std::size_t>(lastN));
    std::unordered_map<std::int32_t, int> counts;
    for (std::size_t i = history.size() - window; i < history.size(); ++i)
        ++counts[history[i]];
    if (counts.empty())
        return;
    const double repeat = number("repeat");
    const double frequency = number("frequency");
    const double presence = number("presence");
    for (auto& t : candidates.data()) {
        const auto found = counts.find(t.id);
        if (found == counts.end())
            continue;
        // 0 is unchanged by either branch, so the libraries' "< 0" and "<= 0" tests agree.
        if (t.logit == -std::numeric_limits<double>::infinity())
            continue;  // a banned token stays banned
        // Every step is kept finite: repeat = 1e-320 turns a positive logit into DBL_MAX, not +inf.
        t.logit = detail::saturated(t.logit <= 0.0 ? t.logit * repeat : t.logit / repeat);
        t.logit = detail::saturated(t.logit - detail::saturated(found->second * frequency + presence));
        context.noteAdjusted(t.id, t.logit);
    }
    candidates.setSorted(false);
}

}  // namespace logitlab::engine
