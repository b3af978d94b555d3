#include "explorer_chain.h"

#include "chain_evaluation.h"
#include "chain_text.h"
#include "sampler_context.h"

namespace logitlab::engine {

namespace {

// The zoo's chain for these values under their preset, run once on the logits.
Result<CandidateList> runChain(const Eigen::Ref<const Eigen::ArrayXd>& logits, const ExplorerChain& chain)
{
    auto built = buildChain(toChainSettings(chain), chain.semantics);
    if (!built)
        return Error{built.error()};
    SamplerContext context;
    context.vocabSize = static_cast<std::size_t>(logits.size());
    return evaluateChain(built.value(), logits, context);
}

}  // namespace

ChainSettings toChainSettings(const ExplorerChain& chain)
{
    ChainSettings s;
    s.temperature = chain.lesson.temperature;
    if (chain.lesson.topK)
        s.topK = *chain.lesson.topK;
    s.topP = chain.lesson.topP;
    s.minP = chain.minP;
    s.typical = chain.typical;
    return s;
}

std::optional<std::string> validateExplorerChain(const ExplorerChain& chain)
{
    if (chain.lessonOnly())
        return validateSettings(chain.lesson);
    auto built = buildChain(toChainSettings(chain), chain.semantics);
    if (!built)
        return built.error();
    return std::nullopt;
}

std::string describeExplorerChain(const ExplorerChain& chain)
{
    auto built = buildChain(toChainSettings(chain), chain.semantics);
    if (!built)
        return built.error();
    std::string text;
    for (const SamplerStage* stage : built.value().activeStages())
        text += (text.empty() ? "" : " → ") + formatStage(*stage);
    return text;
}

SamplerAnalysis analyseExplorerChain(const Eigen::Ref<const Eigen::ArrayXd>& logits, const ExplorerChain& chain,
                                     const std::vector<std::int32_t>& order)
{
    SamplerAnalysis a = analyse(logits, chain.lesson, order);  // probabilities at T, entropy
    if (chain.lessonOnly())
        return a;
    a.survivors = runChain(logits, chain).value();
    double kept = 0.0;
    for (const Candidate& c : a.survivors)
        kept += c.pRaw;
    a.massKept = std::min(1.0, kept);
    a.massRemoved = std::max(0.0, 1.0 - a.massKept);
    a.outsideTop1 = a.survivors.empty() ? 0.0 : std::max(0.0, 1.0 - a.survivors.front().p);
    if (chain.lesson.temperature == 0.0)
        a.rule = CutRule::Greedy;  // every preset takes the argmax at T = 0
    else
        a.rule = a.survivors.size() < static_cast<std::size_t>(logits.size()) ? CutRule::Chain : CutRule::None;
    a.cutThreshold = 0.0;
    return a;
}

std::vector<SweepPoint> explorerChainSweep(const Eigen::Ref<const Eigen::ArrayXd>& logits, const ExplorerChain& chain,
                                           const std::vector<double>& temperatures,
                                           const std::vector<std::int32_t>& tracked,
                                           const std::function<bool()>& stop)
{
    if (chain.lessonOnly())
        return temperatureSweep(logits, chain.lesson, temperatures, tracked, stop);
    // Probabilities of the tracked tokens from the lesson's sweep (softmax at T), survivors from
    // the chain at each T.
    std::vector<SweepPoint> points = temperatureSweep(logits, SamplerSettings{}, temperatures, tracked, stop);
    for (SweepPoint& point : points) {
        if (stop && stop())
            break;
        ExplorerChain at = chain;
        at.lesson.temperature = point.temperature;
        if (auto survivors = runChain(logits, at))
            point.survivors = survivors->size();
    }
    return points;
}

std::vector<Result<CandidateList>> compareSemantics(const Eigen::Ref<const Eigen::ArrayXd>& logits,
                                                    const ExplorerChain& chain)
{
    std::vector<Result<CandidateList>> out;
    for (Semantics s : allSemantics()) {
        ExplorerChain under = chain;
        under.semantics = s;
        out.push_back(runChain(logits, under));
    }
    return out;
}

}  // namespace logitlab::engine
