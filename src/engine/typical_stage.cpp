#include "typical_stage.h"

#include "number_format.h"
#include "stage_support.h"

#include <algorithm>
#include <cmath>

namespace logitlab::engine {

TypicalStage::TypicalStage(Semantics semantics) : StageBase(semantics)
{
    declare({"p", ParameterKind::Real, 1.0,
             "lesson: (0, 1], 1 is off; llama.cpp: any, >= 1 is off; hf: (0, 1), 1 is off; not in vllm"});
    declareMinKeep(true, true);
}

std::optional<std::string> TypicalStage::validate() const
{
    const double p = number("p");
    switch (semantics()) {
    case Semantics::Vllm:
        return name() + ": vllm has no typical-p sampler";
    case Semantics::Lesson:
        if (!(p > 0.0 && p <= 1.0))
            return problem("p", "must be in (0, 1], got " + formatDouble(p));
        break;
    case Semantics::Hf:
        if (!(p > 0.0 && p <= 1.0))
            return problem("p", "hf requires typical_p in (0, 1), got " + formatDouble(p));
        break;
    case Semantics::LlamaCpp:
        break;
    }
    return checkMinKeep();
}

void TypicalStage::apply(CandidateArray& candidates, SamplerContext& /*context*/)
{
    if (candidates.empty())
        return;
    const double mass = number("p");
    const std::size_t keep = minKeep();

    candidates.softmax();
    if (semantics() != Semantics::Hf)
        candidates.sortDescending();  // llama.cpp's softmax sorts first; the score order is built on it
    // llama.cpp computes -p ln p unguarded, so one p = 0 makes H NaN; LogitLab uses the limit 0.
    const double h = detail::entropy(candidates);
    auto& data = candidates.data();
    std::vector<double> score(data.size());
    for (std::size_t i = 0; i < data.size(); ++i)
        score[i] = data[i].p > 0.0 ? std::fabs(-std::log(data[i].p) - h) : std::numeric_limits<double>::infinity();
    // Scores equal in exact arithmetic (p = 0.5, 0.25, 0.25 all score 0.5 ln 2) differ by an ulp
    // in double; within the boundary tolerance they are ties, in array order.
    std::vector<std::size_t> order(data.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&score](std::size_t a, std::size_t b) { return score[a] < score[b]; });
    for (std::size_t start = 0; start < order.size();) {
        std::size_t end = start + 1;
        while (end < order.size() && score[order[end]] <= score[order[start]] + detail::kBoundaryTolerance)
            ++end;
        std::sort(order.begin() + static_cast<std::ptrdiff_t>(start), order.begin() + static_cast<std::ptrdiff_t>(end));
        start = end;
    }

    if (semantics() != Semantics::Hf) {
        double cumulative = 0.0;
        std::size_t count = order.size();
        for (std::size_t r = 0; r < order.size(); ++r) {
            cumulative += data[order[r]].p;
            if (cumulative > mass + detail::kBoundaryTolerance && r + 1 >= keep) {
                count = r + 1;
                break;
            }
        }
        std::vector<TokenData> kept(count);
        for (std::size_t r = 0; r < count; ++r)
            kept[r] = data[order[r]];
        data = std::move(kept);
        candidates.setSorted(false);  // typicality order, p left as it was before the cut
        return;
    }

    // Hugging Face: last = how many running totals are < mass; tokens scoring above the score
    // there go, the first min_keep in typicality order stay.
    double cumulative = 0.0;
    std::size_t last = 0;
    for (std::size_t r = 0; r < order.size(); ++r) {
        cumulative += data[order[r]].p;
        if (cumulative < mass - detail::kBoundaryTolerance)
            ++last;
    }
    last = std::min(last, order.size() - 1);
    const double boundary = score[order[last]];
    std::vector<bool> remove(data.size());
    for (std::size_t i = 0; i < data.size(); ++i)
        remove[i] = score[i] > boundary + detail::kBoundaryTolerance;  // ties on the boundary score stay
    for (std::size_t r = 0; r < std::min(keep, order.size()); ++r)
        remove[order[r]] = false;
    detail::removeExceptTop(candidates, std::move(remove), 0);
}

}  // namespace logitlab::engine
