#include "engine/sampler/chain_evaluation.h"

#include "engine/kernels/fdlibm_exp.h"
#include "engine/kernels/softmax_kernel.h"
#include "engine/sampler/candidates.h"
#include "engine/stages/stage_support.h"

#include <algorithm>
#include <cmath>

namespace logitlab::engine {

std::optional<SamplerSettings> lessonFastPath(const SamplerChain& chain)
{
    if (chain.semantics() != Semantics::Lesson)
        return std::nullopt;
    static const std::vector<std::string> order{"temperature", "top-k", "top-p"};
    SamplerSettings settings;
    std::size_t next = 0;
    for (const SamplerStage* s : chain.activeStages()) {
        while (next < order.size() && order[next] != s->name())
            ++next;
        if (next == order.size())
            return std::nullopt;
        if (s->name() == "temperature")
            settings.temperature = s->number("t");
        else if (s->name() == "top-k")
            settings.topK = static_cast<int>(s->number("k"));
        else
            settings.topP = s->number("p");
        ++next;
    }
    return settings;
}

CandidateList survivorsOf(const CandidateArray& final, const Eigen::Ref<const Eigen::ArrayXd>& logits,
                          const SamplerContext& context, Semantics semantics)
{
    // Whole-vocabulary softmax of the adjusted logits at the chain's temperature.
    const double scale = context.temperatureScale > 0.0 ? context.temperatureScale : 1.0;
    const bool greedy = context.temperatureScale == 0.0;
    const auto unscaled = [&](Eigen::Index i) {
        const auto found = context.adjustedLogits.find(static_cast<std::int32_t>(i));
        return found == context.adjustedLogits.end() ? logits[i] : found->second;
    };
    double maxUnscaled = detail::kNegInf;
    for (Eigen::Index i = 0; i < logits.size(); ++i)
        maxUnscaled = std::max(maxUnscaled, unscaled(i));
    // l / T - max / T as the chain computes it, unless max / T overflows: then (l - max) / T, the
    // same in exact arithmetic and never inf - inf.
    const bool shift = detail::scaledMaxOverflows(maxUnscaled, scale);
    const double maxLogit = shift ? 0.0 : maxUnscaled / scale;
    const auto adjusted = [&](Eigen::Index i) {
        return shift ? (unscaled(i) - maxUnscaled) / scale : unscaled(i) / scale;
    };
    // The lesson's p_raw carries Math.exp's bits (fdlibm_exp.h); the libraries' the C library's.
    const auto exponential = [&semantics](double x) {
        return semantics == Semantics::Lesson ? fdlibmExp(x) : std::exp(x);
    };
    double sum = 0.0;
    if (maxUnscaled != detail::kNegInf)
        for (Eigen::Index i = 0; i < logits.size(); ++i)
            sum += exponential(adjusted(i) - maxLogit);

    CandidateList out;
    for (const auto& t : final.data()) {
        if (detail::masked(t) && final.finiteCount() > 0 && semantics != Semantics::Lesson)
            continue;
        double raw = sum > 0.0 ? exponential(adjusted(t.id) - maxLogit) / sum : 0.0;
        if (greedy)
            raw = detail::masked(t) ? 0.0 : 1.0;  // the T -> 0 limit, as the lesson reports it
        out.push_back(Candidate{t.id, t.p, raw});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Candidate& a, const Candidate& b) { return a.p > b.p || (a.p == b.p && a.id < b.id); });
    return out;
}

CandidateList evaluateChain(SamplerChain& chain, const Eigen::Ref<const Eigen::ArrayXd>& logits,
                            SamplerContext& context)
{
    if (const auto settings = lessonFastPath(chain))
        return candidates(logits, *settings);
    const CandidateArray final = chain.run(logits.data(), static_cast<std::size_t>(logits.size()), context);
    return survivorsOf(final, logits, context, chain.semantics());
}

}  // namespace logitlab::engine
