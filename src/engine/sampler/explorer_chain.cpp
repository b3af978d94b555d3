#include "engine/sampler/explorer_chain.h"

#include "engine/io/logits_parser.h"
#include "engine/sampler/candidates_from_order.h"
#include "engine/sampler/chain_divergences.h"
#include "engine/sampler/chain_evaluation.h"
#include "engine/sampler/chain_text.h"
#include "engine/sampler/cut_report.h"
#include "engine/sampler/sampler_context.h"
#include "engine/sampler/softmax.h"
#include "engine/stages/logit_bias_stage.h"
#include "engine/stages/temperature_stage.h"

#include <algorithm>
#include <map>

namespace logitlab::engine {

namespace {

// The zoo's chain for these values under their preset, run once on the logits. `context` is
// left as the chain left it (which logits it changed).
Result<CandidateList> runChain(const Eigen::Ref<const Eigen::ArrayXd>& logits, const ExplorerChain& chain,
                               SamplerContext& context)
{
    if (auto problem = validateExplorerChain(chain, static_cast<std::size_t>(logits.size())))
        return Error{*problem};
    auto built = explorerSamplerChain(chain);
    if (!built)
        return Error{built.error()};
    context.vocabSize = static_cast<std::size_t>(logits.size());
    context.history = chain.context;
    return evaluateChain(built.value(), logits, context);
}

Result<CandidateList> runChain(const Eigen::Ref<const Eigen::ArrayXd>& logits, const ExplorerChain& chain)
{
    SamplerContext context;
    return runChain(logits, chain, context);
}

// `order` (ids by descending logit) for the logits with `changed` tokens moved to their new
// place: O(V) per changed token instead of a sort of the vocabulary on every slider step.
std::vector<std::int32_t> reorder(const std::vector<std::int32_t>& order, const Eigen::ArrayXd& logits,
                                  const std::map<std::int32_t, double>& changed)
{
    const auto before = [&logits](std::int32_t a, std::int32_t b) {
        return logits[a] > logits[b] || (logits[a] == logits[b] && a < b);
    };
    if (changed.size() > 64)
        return idsByDescendingLogit(logits);
    std::vector<std::int32_t> out;
    out.reserve(order.size());
    for (std::int32_t id : order)
        if (!changed.count(id))
            out.push_back(id);
    for (const auto& entry : changed)
        out.insert(std::lower_bound(out.begin(), out.end(), entry.first, before), entry.first);
    return out;
}

// The temperature whose probabilities the Explorer shows: the preset's greedy temperatures
// (llama.cpp's T <= 0, vLLM's T = 0) are shown as T = 0, the argmax; vLLM's floor raises a T in
// (0, 0.01) to 0.01, and that is the temperature shown.
double displayTemperature(const ExplorerChain& chain)
{
    const double t = chain.lesson.temperature;
    if (chain.semantics == Semantics::LlamaCpp && t <= 0.0)
        return 0.0;
    return effectiveTemperature(chain.semantics, t);
}

}  // namespace

bool ExplorerChain::xtcAtRandom() const
{
    const double p = stages.xtcProbability.value_or(0.0);
    return p > 0.0 && p < 1.0;
}

ChainSettings toChainSettings(const ExplorerChain& chain)
{
    ChainSettings s = chain.stages;
    s.temperature = chain.lesson.temperature;
    s.topK.reset();
    if (chain.lesson.topK)
        s.topK = *chain.lesson.topK;
    s.topP = chain.lesson.topP;
    return s;
}

ExplorerChain fromChainSettings(ChainSettings settings, Semantics semantics)
{
    ExplorerChain chain;
    chain.semantics = semantics;
    chain.lesson.temperature = settings.temperature.value_or(1.0);
    if (settings.topK)
        chain.lesson.topK = static_cast<int>(*settings.topK);
    chain.lesson.topP = settings.topP;
    settings.temperature.reset();
    settings.topK.reset();
    settings.topP.reset();
    chain.stages = std::move(settings);
    return chain;
}

Result<ExplorerChain> explorerChainOf(const SamplerChain& chain, std::vector<std::int32_t> context,
                                      std::size_t vocabSize)
{
    auto settings = chainSettingsOf(chain);
    if (!settings)
        return Error{settings.error()};
    ExplorerChain out = fromChainSettings(std::move(settings).value(), chain.semantics());
    out.context = std::move(context);
    if (auto bad = validateExplorerChain(out, vocabSize))
        return Error{*bad};
    return out;
}

Result<SamplerChain> explorerSamplerChain(const ExplorerChain& chain)
{
    ChainSettings settings = toChainSettings(chain);
    if (chain.xtcAtRandom())
        settings.xtcProbability = 1.0;
    return buildChain(settings, chain.semantics);
}

std::optional<std::string> validateExplorerChain(const ExplorerChain& chain, std::size_t vocabSize)
{
    if (chain.lessonOnly())
        return validateSettings(chain.lesson);
    auto built = buildChain(toChainSettings(chain), chain.semantics);
    if (!built)
        return built.error();
    if (vocabSize == 0)
        return std::nullopt;
    for (std::int32_t id : chain.context)
        if (id < 0 || static_cast<std::size_t>(id) >= vocabSize)
            return "context: token #" + std::to_string(id) + " is outside the vocabulary of " +
                   std::to_string(vocabSize) + " tokens";
    for (const auto& stage : built.value().stages())
        if (const auto* bias = dynamic_cast<const LogitBiasStage*>(stage.get()))
            if (auto bad = bias->checkVocabulary(vocabSize))
                return bad;
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

std::vector<std::string> explorerChainWarnings(const ExplorerChain& chain)
{
    auto built = buildChain(toChainSettings(chain), chain.semantics);
    return built ? llamaCppDivergences(built.value()) : std::vector<std::string>{};
}

std::vector<std::string> explorerCutMarks(const Eigen::Ref<const Eigen::ArrayXd>& logits, const ExplorerChain& chain)
{
    std::vector<std::string> marks;
    // Two more runs with a note per token: kept for the vocabularies one reads token by token.
    if (logits.size() > kCutMarksUpTo)
        return marks;
    auto built = buildChain(toChainSettings(chain), chain.semantics);
    if (!built)
        return marks;
    const std::vector<std::int32_t> history(chain.context.begin(), chain.context.end());
    for (const RoundingNote& note : roundingDependence(built.value(), logits, history))
        marks.push_back(describeRounding(note, {}));
    for (const TieNote& tie : tiesAtCuts(built.value(), logits, history))
        marks.push_back(describeTie(tie, {}));
    return marks;
}

SamplerAnalysis analyseExplorerChain(const Eigen::Ref<const Eigen::ArrayXd>& logits, const ExplorerChain& chain,
                                     const std::vector<std::int32_t>& order)
{
    if (chain.lessonOnly()) {
        SamplerAnalysis a = analyse(logits, chain.lesson, order);  // probabilities at T, entropy, the cut
        a.cutMarks = explorerCutMarks(logits, chain);
        return a;
    }
    SamplerContext context;
    CandidateList survivors = runChain(logits, chain, context).value();
    // Probabilities at T and the entropy are those of the logits the chain's bias, penalties,
    // DRY and n-gram bans left (the changes are kept on the temperature-1 scale).
    // Only the temperature is read from the lesson's settings here: their top-k and top-p follow
    // the preset's rules (hf's top-k 0 is "off", llama.cpp's top-p may be 0), which analyse()'s
    // lesson cut does not know, and the survivors are the chain's anyway.
    SamplerSettings display;
    display.temperature = displayTemperature(chain);
    SamplerAnalysis a;
    Eigen::ArrayXd adjusted;
    if (!context.adjustedLogits.empty()) {
        adjusted = logits;
        for (const auto& [id, logit] : context.adjustedLogits)
            adjusted[id] = logit;
    }
    if (adjusted.size() > 0 && !validateLogits(adjusted))
        a = analyse(adjusted, display, reorder(order, adjusted, context.adjustedLogits));
    else
        a = analyse(logits, display, order);  // no change (or every token banned: nothing to show)
    a.survivors = std::move(survivors);
    double kept = 0.0;
    for (const Candidate& c : a.survivors)
        kept += c.pRaw;
    a.massKept = std::min(1.0, kept);
    a.massRemoved = std::max(0.0, 1.0 - a.massKept);
    a.outsideTop1 = a.survivors.empty() ? 0.0 : std::max(0.0, 1.0 - a.survivors.front().p);
    if (display.temperature == 0.0 || actsAsGreedy(logits, display.temperature))
        a.rule = CutRule::Greedy;  // every preset takes the argmax at T = 0
    else
        a.rule = a.survivors.size() < static_cast<std::size_t>(logits.size()) ? CutRule::Chain : CutRule::None;
    a.cutThreshold = 0.0;
    a.cutMarks = explorerCutMarks(logits, chain);
    return a;
}

std::vector<SweepPoint> explorerChainSweep(const Eigen::Ref<const Eigen::ArrayXd>& logits, const ExplorerChain& chain,
                                           const std::vector<double>& temperatures,
                                           const std::vector<std::int32_t>& tracked, const std::function<bool()>& stop)
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
        under.stages.order.clear();  // each preset in its own order: a custom order names one preset's stages
        out.push_back(runChain(logits, under));
    }
    return out;
}

}  // namespace logitlab::engine
