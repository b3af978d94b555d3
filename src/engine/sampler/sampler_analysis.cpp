#include "engine/sampler/sampler_analysis.h"

#include "engine/kernels/softmax_kernel.h"
#include "engine/sampler/candidates.h"
#include "engine/sampler/candidates_from_order.h"
#include "engine/sampler/softmax.h"

#include <cmath>
#include <numbers>

namespace logitlab::engine {

namespace {

// Probabilities at T (one-hot at T = 0) and the entropy. The entropy uses
// ln p_i = (l_i - l_max) / T - ln S with ln S = -ln p_max, so it costs one multiply-add per
// token instead of a logarithm: a third of the update at V = 262,144.
void fillProbabilities(const Eigen::Ref<const Eigen::ArrayXd>& logits, const SamplerSettings& settings,
                       SamplerAnalysis& a)
{
    const auto n = static_cast<std::size_t>(logits.size());
    const std::int32_t top = argmax(logits);
    if (settings.temperature == 0.0) {
        a.probabilities.assign(n, 0.0);
        a.probabilities[static_cast<std::size_t>(top)] = 1.0;
        return;
    }
    // softmax(), written straight into the analysis (no 2 MB temporary at V = 262,144). The caller
    // turned a temperature whose l / T overflows into T = 0.
    a.probabilities.resize(n);
    const double sum = detail::exponentiate(logits.data(), n, settings.temperature, top, a.probabilities.data());
    detail::normalise(a.probabilities.data(), n, sum);
    const Eigen::Map<const Eigen::ArrayXd> p(a.probabilities.data(), logits.size());
    const double maxLogit = logits[top];
    double weighted = 0.0;
    for (std::size_t i = 0; i < n; ++i)
        if (p[static_cast<Eigen::Index>(i)] > 0.0)
            weighted += p[static_cast<Eigen::Index>(i)] * (logits[static_cast<Eigen::Index>(i)] - maxLogit);
    if (!std::isfinite(weighted)) {
        // l - l_max overflowed (logits near +-1e308): the same sum on the scaled logits, which
        // the softmax above found finite.
        const double maxScaled = maxLogit / settings.temperature;
        weighted = 0.0;
        for (std::size_t i = 0; i < n; ++i)
            if (p[static_cast<Eigen::Index>(i)] > 0.0)
                weighted += p[static_cast<Eigen::Index>(i)] *
                            (logits[static_cast<Eigen::Index>(i)] / settings.temperature - maxScaled);
        a.entropyNats = std::max(0.0, -std::log(p[top]) - weighted);
        return;
    }
    a.entropyNats = std::max(0.0, -std::log(p[top]) - weighted / settings.temperature);
}

void summarise(const SamplerSettings& settings, std::size_t n, SamplerAnalysis& a)
{
    a.entropyBits = a.entropyNats / std::numbers::ln2;
    a.perplexity = std::exp(a.entropyNats);
    double kept = 0.0;
    for (const Candidate& c : a.survivors)
        kept += c.pRaw;
    a.massKept = settings.temperature == 0.0 ? 1.0 : kept;
    a.massRemoved = std::max(0.0, 1.0 - a.massKept);
    a.outsideTop1 = a.survivors.empty() ? 0.0 : std::max(0.0, 1.0 - a.survivors.front().p);

    if (settings.temperature == 0.0) {
        a.rule = CutRule::Greedy;
    } else if (a.survivors.size() == n) {
        a.rule = CutRule::None;
    } else if (settings.topP && kept > *settings.topP) {
        a.rule = CutRule::TopP;
        a.cutThreshold = *settings.topP;
    } else if (settings.topK) {
        a.rule = CutRule::TopK;
        a.cutThreshold = *settings.topK;
    }
}

// A temperature so small that l/T overflows is shown as what it does: greedy (T = 0).
SamplerSettings effective(const Eigen::Ref<const Eigen::ArrayXd>& logits, SamplerSettings settings)
{
    if (actsAsGreedy(logits, settings.temperature))
        settings.temperature = 0.0;
    return settings;
}

}  // namespace

SamplerAnalysis analyse(const Eigen::Ref<const Eigen::ArrayXd>& logits, const SamplerSettings& requested)
{
    const SamplerSettings settings = effective(logits, requested);
    SamplerAnalysis a;
    fillProbabilities(logits, settings, a);
    a.survivors = settings.temperature == 0.0 ? candidates(logits, settings)
                                              : candidatesFromProbabilities(a.probabilities, settings);
    summarise(settings, static_cast<std::size_t>(logits.size()), a);
    return a;
}

SamplerAnalysis analyse(const Eigen::Ref<const Eigen::ArrayXd>& logits, const SamplerSettings& requested,
                        const std::vector<std::int32_t>& order)
{
    const SamplerSettings settings = effective(logits, requested);
    SamplerAnalysis a;
    if (order.empty())
        return a;
    fillProbabilities(logits, settings, a);
    if (settings.temperature == 0.0)
        a.survivors = {Candidate{order.front(), 1.0, 1.0}};
    else
        a.survivors = candidatesFromOrder(a.probabilities, order, settings);
    summarise(settings, static_cast<std::size_t>(logits.size()), a);
    return a;
}

}  // namespace logitlab::engine
