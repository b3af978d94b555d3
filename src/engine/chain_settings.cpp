#include "chain_settings.h"

#include "logit_bias_stage.h"
#include "number_format.h"
#include "stage_factory.h"

#include <algorithm>
#include <functional>
#include <map>

namespace logitlab::engine {

ChainSettings withLibraryDefaults(ChainSettings s, Semantics semantics)
{
    switch (semantics) {
    case Semantics::LlamaCpp:
        if (!s.topK) s.topK = 40;
        if (!s.topP) s.topP = 0.95;
        if (!s.minP) s.minP = 0.05;
        if (!s.temperature) s.temperature = 0.8;
        if (!s.penaltyLastN) s.penaltyLastN = 64;
        break;
    case Semantics::Hf:
        if (!s.topK) s.topK = 50;
        if (!s.temperature) s.temperature = 1.0;
        break;
    case Semantics::Vllm:
    case Semantics::Lesson:
        break;
    }
    return s;
}

const std::vector<std::string>& presetOrder(Semantics semantics)
{
    static const std::vector<std::string> lesson{"logit-bias", "penalties", "no-repeat-ngram", "dry", "temperature",
                                                 "top-k", "top-p", "min-p", "typical", "epsilon", "eta",
                                                 "top-n-sigma", "xtc", "mirostat"};
    static const std::vector<std::string> llama{"logit-bias", "penalties", "dry", "top-n-sigma", "top-k", "typical",
                                                "top-p", "min-p", "xtc", "temperature"};
    static const std::vector<std::string> hf{"logit-bias", "penalties", "no-repeat-ngram", "temperature",
                                             "top-k", "top-p", "min-p", "typical", "epsilon", "eta"};
    static const std::vector<std::string> vllm{"logit-bias", "penalties", "temperature", "min-p", "top-k", "top-p"};
    switch (semantics) {
    case Semantics::Lesson: return lesson;
    case Semantics::LlamaCpp: return llama;
    case Semantics::Hf: return hf;
    case Semantics::Vllm: return vllm;
    }
    return lesson;
}

const std::vector<ChainSettingField>& chainSettingFields()
{
    using S = ChainSettings;
    static const std::vector<ChainSettingField> fields{
        {"min-p", &S::minP, "min-p", "Min-p: keep tokens with p >= P * p_max."},
        {"typical", &S::typical, "typical", "Locally typical sampling mass (llama.cpp, hf)."},
        {"epsilon", &S::epsilon, "epsilon", "Epsilon cutoff (hf)."},
        {"eta", &S::eta, "eta", "Eta cutoff (hf)."},
        {"top-n-sigma", &S::topNSigma, "top-n-sigma", "Top-n-sigma: keep logits >= max - N sigma (llama.cpp)."},
        {"xtc-probability", &S::xtcProbability, "xtc", "XTC: chance of excluding the top choices (llama.cpp)."},
        {"xtc-threshold", &S::xtcThreshold, "xtc", "XTC: probability threshold, default 0.1 (llama.cpp)."},
        {"min-keep", &S::minKeep, "", "min_keep for the truncating samplers (llama.cpp, hf)."},
        {"penalty-last-n", &S::penaltyLastN, "penalties",
         "Penalties look at the last N tokens of the history (llama.cpp; -1 all)."},
        {"repeat-penalty", &S::repeatPenalty, "penalties", "Repetition penalty (> 0; 1 is off)."},
        {"frequency-penalty", &S::frequencyPenalty, "penalties", "Frequency penalty (llama.cpp, vllm)."},
        {"presence-penalty", &S::presencePenalty, "penalties", "Presence penalty (llama.cpp, vllm)."},
        {"no-repeat-ngram", &S::noRepeatNgram, "no-repeat-ngram",
         "Ban tokens completing a repeated N-gram of the history (hf)."},
        {"dynatemp-range", &S::dynatempRange, "temperature",
         "Dynamic temperature: +- range around the temperature (llama.cpp)."},
        {"dynatemp-exponent", &S::dynatempExponent, "temperature", "Dynamic temperature exponent, default 1 (llama.cpp)."},
        {"mirostat", &S::mirostat, "mirostat", "Mirostat version: 0 off, 1 or 2 (llama.cpp)."},
        {"mirostat-tau", &S::mirostatTau, "mirostat", "Mirostat target surprise, default 5."},
        {"mirostat-eta", &S::mirostatEta, "mirostat", "Mirostat learning rate, default 0.1."},
        {"dry-multiplier", &S::dryMultiplier, "dry", "DRY multiplier (llama.cpp; 0 is off)."},
        {"dry-base", &S::dryBase, "dry", "DRY base, default 1.75."},
        {"dry-allowed-length", &S::dryAllowedLength, "dry", "DRY allowed length, default 2."},
        {"dry-penalty-last-n", &S::dryLastN, "dry", "DRY window over the history, default -1 (all)."},
    };
    return fields;
}

std::string presetStageKey(const std::string& stage)
{
    if (stage == "dynamic-temperature")
        return "temperature";
    return stage.rfind("mirostat", 0) == 0 ? "mirostat" : stage;
}

bool presetHasStage(Semantics semantics, const std::string& stage)
{
    const auto& order = presetOrder(semantics);
    return std::find(order.begin(), order.end(), stage) != order.end();
}

namespace {

// A user's order must name every stage of the preset's chain exactly once.
std::optional<std::string> checkOrder(const std::vector<std::string>& order, Semantics semantics)
{
    const auto& preset = presetOrder(semantics);
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (!presetHasStage(semantics, order[i]))
            return "order: '" + order[i] + "' is not a stage of the " + semanticsName(semantics) + " chain";
        if (std::find(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(i), order[i])
            != order.begin() + static_cast<std::ptrdiff_t>(i))
            return "order: '" + order[i] + "' is listed twice";
    }
    for (const std::string& stage : preset)
        if (std::find(order.begin(), order.end(), stage) == order.end())
            return "order: '" + stage + "' is missing (list every stage of the " + semanticsName(semantics) + " chain)";
    return std::nullopt;
}

using Values = std::vector<std::pair<std::string, std::optional<double>>>;

// The settings a stage name draws on, as (parameter, value) pairs.
struct Wanted {
    std::string stage;
    Values values;
    std::string listParameter;
    std::string listValue;
};

std::optional<std::string> configure(SamplerStage& stage, const Wanted& w, const std::optional<double>& minKeep)
{
    for (const auto& [name, value] : w.values)
        if (value)
            if (auto bad = stage.setNumber(name, *value))
                return bad;
    if (!w.listValue.empty())
        if (auto bad = stage.setParameter(w.listParameter, w.listValue))
            return bad;
    if (minKeep && stage.findParameter("min-keep"))
        if (auto bad = stage.setNumber("min-keep", *minKeep))
            return bad;
    return stage.validate();
}

bool anySet(const Wanted& w)
{
    if (!w.listValue.empty())
        return true;
    for (const auto& [name, value] : w.values)
        if (value)
            return true;
    return false;
}

// Names the option that asked for a stage the preset's library does not have.
const std::map<std::string, std::string>& optionOf()
{
    static const std::map<std::string, std::string> m{
        {"typical", "typical"}, {"epsilon", "epsilon"}, {"eta", "eta"}, {"top-n-sigma", "top-n-sigma"},
        {"xtc", "xtc-probability"}, {"no-repeat-ngram", "no-repeat-ngram"}, {"dry", "dry-multiplier"},
        {"mirostat-v1", "mirostat"}, {"mirostat-v2", "mirostat"}, {"dynamic-temperature", "dynatemp-range"}};
    return m;
}

}  // namespace

Result<SamplerChain> buildChain(const ChainSettings& s, Semantics semantics)
{
    if (s.minKeep && (semantics == Semantics::Lesson || semantics == Semantics::Vllm))
        return Error{"min-keep: " + semanticsName(semantics) + " has no min_keep"};
    if (s.mirostat && *s.mirostat != 0 && *s.mirostat != 1 && *s.mirostat != 2)
        return Error{"mirostat: must be 0 (off), 1 or 2, got " + formatDouble(*s.mirostat)};
    const bool dynamic = s.dynatempRange && *s.dynatempRange != 0.0;
    const int mirostat = s.mirostat ? static_cast<int>(*s.mirostat) : 0;
    if (!s.order.empty())
        if (auto bad = checkOrder(s.order, semantics))
            return Error{*bad};

    std::vector<Wanted> wanted{
        {"logit-bias", {}, "bias", s.logitBias},
        {"penalties", {{"last-n", s.penaltyLastN}, {"repeat", s.repeatPenalty}, {"frequency", s.frequencyPenalty},
                       {"presence", s.presencePenalty}}, "", ""},
        {"no-repeat-ngram", {{"n", s.noRepeatNgram}}, "", ""},
        {"dry", {{"multiplier", s.dryMultiplier}, {"base", s.dryBase}, {"allowed-length", s.dryAllowedLength},
                 {"last-n", s.dryLastN}}, "breakers", s.dryBreakers},
        {dynamic ? "dynamic-temperature" : "temperature",
         dynamic ? Values{{"t", s.temperature}, {"delta", s.dynatempRange}, {"exponent", s.dynatempExponent}}
                 : Values{{"t", s.temperature}}, "", ""},
        {"top-k", {{"k", s.topK}}, "", ""},
        {"top-p", {{"p", s.topP}}, "", ""},
        {"min-p", {{"p", s.minP}}, "", ""},
        {"typical", {{"p", s.typical}}, "", ""},
        {"epsilon", {{"epsilon", s.epsilon}}, "", ""},
        {"eta", {{"epsilon", s.eta}}, "", ""},
        {"top-n-sigma", {{"n", s.topNSigma}}, "", ""},
        {"xtc", {{"probability", s.xtcProbability}, {"threshold", s.xtcThreshold}}, "", ""},
        {mirostat == 1 ? "mirostat-v1" : "mirostat-v2", {{"tau", s.mirostatTau}, {"eta", s.mirostatEta}}, "", ""},
    };
    if (mirostat == 0)
        wanted.back().values.clear();  // tau/eta alone do not switch mirostat on

    // llama.cpp's mirostat replaces the whole chain with bias -> temperature -> mirostat.
    std::vector<std::string> order = s.order.empty() ? presetOrder(semantics) : s.order;
    if (mirostat != 0 && semantics == Semantics::LlamaCpp)
        order = {"logit-bias", "temperature", "mirostat"};

    const auto keyOf = presetStageKey;
    const auto asked = [&](const Wanted& w) { return anySet(w) || (keyOf(w.stage) == "mirostat" && mirostat != 0); };

    for (const Wanted& w : wanted) {
        const std::string key = keyOf(w.stage);
        if (!asked(w) || std::find(order.begin(), order.end(), key) != order.end())
            continue;
        const auto& full = presetOrder(semantics);
        if (mirostat != 0 && std::find(full.begin(), full.end(), key) != full.end())
            continue;  // llama.cpp's mirostat chain leaves these samplers out
        if (auto probe = makeStage(w.stage, semantics))
            if (auto bad = probe.value()->validate())
                return Error{*bad};
        const auto option = optionOf().find(w.stage);
        return Error{w.stage + ": not part of the " + semanticsName(semantics) + " chain"
                     + (option != optionOf().end() ? " (option --" + option->second + ")" : "")};
    }

    SamplerChain chain(semantics);
    for (const std::string& key : order) {
        for (const Wanted& w : wanted) {
            if (keyOf(w.stage) != key || !asked(w))
                continue;
            auto stage = makeStage(w.stage, semantics);
            if (!stage)
                return Error{stage.error()};
            if (auto bad = configure(*stage.value(), w, s.minKeep))
                return Error{*bad};
            chain.add(std::move(stage).value());
        }
    }
    return chain;
}

}  // namespace logitlab::engine
