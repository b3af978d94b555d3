#include "sampler_analysis.h"

#include "candidates.h"
#include "softmax.h"

#include <cmath>
#include <numbers>

namespace logitlab::engine {

SamplerAnalysis analyse(const Eigen::Ref<const Eigen::ArrayXd>& logits, const SamplerSettings& settings)
{
    SamplerAnalysis a;
    const auto n = static_cast<std::size_t>(logits.size());
    a.probabilities.assign(n, 0.0);
    if (settings.temperature == 0.0) {
        a.probabilities[static_cast<std::size_t>(argmax(logits))] = 1.0;
    } else {
        const Eigen::ArrayXd p = softmax(logits, settings.temperature);
        std::copy(p.data(), p.data() + p.size(), a.probabilities.begin());
    }
    a.survivors = candidates(logits, settings);

    double entropy = 0.0;
    for (double p : a.probabilities)
        if (p > 0.0)
            entropy -= p * std::log(p);
    a.entropyNats = entropy;
    a.entropyBits = entropy / std::numbers::ln2;
    a.perplexity = std::exp(entropy);

    double kept = 0.0;
    for (const Candidate& c : a.survivors)
        kept += c.pRaw;
    a.massKept = settings.temperature == 0.0 ? a.probabilities[static_cast<std::size_t>(a.survivors.front().id)]
                                             : kept;
    a.massRemoved = std::max(0.0, 1.0 - a.massKept);
    a.outsideTop1 = std::max(0.0, 1.0 - a.survivors.front().p);

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
    return a;
}

}  // namespace logitlab::engine
