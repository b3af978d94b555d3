#include "engine/sampler/preset_differences.h"

#include "engine/stages/temperature_stage.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

namespace logitlab::engine {

namespace {

bool temperatureLast(Semantics s) { return s == Semantics::LlamaCpp; }

// True when the k-th largest logit is tied with a logit just outside the top k.
bool tieAtCut(const Eigen::Ref<const Eigen::ArrayXd>& logits, double k)
{
    if (k < 1 || k >= static_cast<double>(logits.size()))
        return false;
    std::vector<double> sorted(logits.begin(), logits.end());
    std::sort(sorted.begin(), sorted.end(), std::greater<>());
    const auto i = static_cast<std::size_t>(k);
    return sorted[i - 1] == sorted[i];
}

std::map<std::int32_t, double> byId(const CandidateList& list)
{
    std::map<std::int32_t, double> out;
    for (const auto& c : list)
        out[c.id] = c.p;
    return out;
}

bool sameSurvivors(const CandidateList& a, const CandidateList& b)
{
    const auto x = byId(a);
    const auto y = byId(b);
    if (x.size() != y.size())
        return false;
    for (const auto& [id, p] : x) {
        const auto found = y.find(id);
        if (found == y.end() || std::abs(found->second - p) > 1e-9)
            return false;
    }
    return true;
}

}  // namespace

std::vector<std::string> explainPresetDifference(Semantics a, Semantics b, const ChainSettings& s,
                                                 const Eigen::Ref<const Eigen::ArrayXd>& logits, bool hasHistory,
                                                 bool libraryDefaults)
{
    const auto involves = [&](Semantics x) { return a == x || b == x; };
    std::vector<std::string> rules;
    if (s.temperature && *s.temperature == 0.0)
        rules.emplace_back("D2 temperature 0: greedy over the survivors (llama.cpp), the lesson's greedy, "
                           "vllm's greedy, rejected (hf)");
    if (s.temperature && *s.temperature > 0.0 && *s.temperature < TemperatureStage::kVllmMinTemperature &&
        involves(Semantics::Vllm))
        rules.emplace_back("vllm temperature floor: vLLM raises a temperature in (0, 0.01) to 0.01");
    const bool shapeFilters = s.topP || s.minP || s.typical || s.epsilon || s.eta || s.xtcProbability;
    if (s.temperature && *s.temperature != 1.0 && shapeFilters && temperatureLast(a) != temperatureLast(b))
        rules.emplace_back("D1 temperature placement: llama.cpp applies it last, after the filters; the "
                           "others apply it first, so the filters see the tempered distribution");
    if (s.topK && tieAtCut(logits, *s.topK) &&
        ((a == Semantics::Hf || a == Semantics::Vllm) != (b == Semantics::Hf || b == Semantics::Vllm)))
        rules.emplace_back("D3 top-k ties: hf and vllm keep every token tied with the k-th logit; the "
                           "lesson and llama.cpp keep exactly k");
    if (s.topP && involves(Semantics::Lesson))
        rules.emplace_back("top-p boundary: the lesson needs the running total to exceed p, the libraries "
                           "stop as soon as it reaches p");
    if (s.topP && s.topK && involves(Semantics::Lesson))
        rules.emplace_back("top-p after top-k: the lesson sums the probabilities from before top-k, the "
                           "libraries renormalise over the top k first");
    if (s.minP && s.topK && involves(Semantics::Vllm))
        rules.emplace_back("vllm order: min-p runs before top-k and top-p");
    if (s.typical && a != Semantics::Vllm && b != Semantics::Vllm)
        rules.emplace_back("D4 typical boundary: llama.cpp stops at a total > p, hf at >= p and keeps ties "
                           "on the boundary score");
    if ((s.repeatPenalty || s.frequencyPenalty || s.presencePenalty) && hasHistory)
        rules.emplace_back("D7 penalty scope: llama.cpp looks at the last penalty-last-n tokens, hf and vllm "
                           "at the whole history");
    if (s.minKeep && (involves(Semantics::Hf) || involves(Semantics::LlamaCpp)))
        rules.emplace_back("min_keep: llama.cpp and hf apply it to different samplers");
    if (libraryDefaults)
        rules.emplace_back("--defaults: each library has its own default values");
    return rules;
}

std::vector<PresetDifference> presetDifferences(const std::vector<Result<CandidateList>>& results,
                                                const ChainSettings& settings,
                                                const Eigen::Ref<const Eigen::ArrayXd>& logits, bool hasHistory,
                                                bool libraryDefaults)
{
    std::vector<PresetDifference> differences;
    const auto& all = allSemantics();
    const std::size_t n = std::min(all.size(), results.size());
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) {
            const auto& x = results[i];
            const auto& y = results[j];
            if (x.ok() != y.ok()) {
                differences.push_back({all[i],
                                       all[j],
                                       {"D5/D8 validation and availability: " +
                                        semanticsName(x.ok() ? all[j] : all[i]) + " rejects these settings"}});
                continue;
            }
            if (!x.ok() || sameSurvivors(x.value(), y.value()))
                continue;
            auto rules = explainPresetDifference(all[i], all[j], settings, logits, hasHistory, libraryDefaults);
            if (rules.empty())
                rules.emplace_back(kUnexplainedPresetDifference);
            differences.push_back({all[i], all[j], std::move(rules)});
        }
    return differences;
}

}  // namespace logitlab::engine
