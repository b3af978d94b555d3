#include "engine/sampler/chain_settings.h"

#include "engine/core/number_format.h"
#include "engine/sampler/arithmetic.h"
#include "engine/sampler/sampler_parameters.h"
#include "engine/stages/logit_bias_stage.h"
#include "engine/stages/stage_factory.h"

#include <algorithm>
#include <functional>
#include <map>

namespace logitlab::engine {

ChainSettings withLibraryDefaults(ChainSettings s, Semantics semantics)
{
    switch (semantics) {
    case Semantics::LlamaCpp:
        if (!s.topK)
            s.topK = 40;
        if (!s.topP)
            s.topP = 0.95;
        if (!s.minP)
            s.minP = 0.05;
        if (!s.temperature)
            s.temperature = 0.8;
        if (!s.penaltyLastN)
            s.penaltyLastN = 64;
        break;
    case Semantics::Hf:
        if (!s.topK)
            s.topK = 50;
        if (!s.temperature)
            s.temperature = 1.0;
        break;
    case Semantics::Vllm:
    case Semantics::Lesson:
        break;
    }
    return s;
}

const std::vector<std::string>& presetOrder(Semantics semantics)
{
    static const std::vector<std::string> lesson{
        "logit-bias", "penalties", "no-repeat-ngram", "dry", "temperature", "top-k", "top-p",
        "min-p",      "typical",   "epsilon",         "eta", "top-n-sigma", "xtc",   "mirostat"};
    static const std::vector<std::string> llama{"logit-bias", "penalties", "dry",   "top-n-sigma", "top-k",
                                                "typical",    "top-p",     "min-p", "xtc",         "temperature"};
    static const std::vector<std::string> hf{"logit-bias", "penalties", "no-repeat-ngram", "temperature", "top-k",
                                             "top-p",      "min-p",     "typical",         "epsilon",     "eta"};
    static const std::vector<std::string> vllm{"logit-bias", "penalties", "temperature", "min-p", "top-k", "top-p"};
    switch (semantics) {
    case Semantics::Lesson:
        return lesson;
    case Semantics::LlamaCpp:
        return llama;
    case Semantics::Hf:
        return hf;
    case Semantics::Vllm:
        return vllm;
    }
    return lesson;
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

std::optional<std::string> checkArithmetic(const std::string& choice)
{
    if (choice.empty() || parseArithmetic(choice))
        return std::nullopt;
    return "arithmetic: '" + choice + "' is not one of exact, library";
}

namespace {

// A user's order must name every stage of the preset's chain exactly once.
std::optional<std::string> checkOrder(const std::vector<std::string>& order, Semantics semantics)
{
    const auto& preset = presetOrder(semantics);
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (!presetHasStage(semantics, order[i]))
            return "order: '" + order[i] + "' is not a stage of the " + semanticsName(semantics) + " chain";
        if (std::find(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(i), order[i]) !=
            order.begin() + static_cast<std::ptrdiff_t>(i))
            return "order: '" + order[i] + "' is listed twice";
    }
    for (const std::string& stage : preset)
        if (std::find(order.begin(), order.end(), stage) == order.end())
            return "order: '" + stage + "' is missing (list every stage of the " + semanticsName(semantics) + " chain)";
    return std::nullopt;
}

// The stage `key` (a presetOrder() name) is made as: dynamic temperature when its range is set,
// mirostat by its version.
std::string stageFor(const std::string& key, bool dynamic, int mirostat)
{
    if (key == "temperature")
        return dynamic ? "dynamic-temperature" : "temperature";
    if (key == "mirostat")
        return mirostat == 1 ? "mirostat-v1" : "mirostat-v2";
    return key;
}

bool isSet(const ChainSettings& s, const SamplerParameter& p)
{
    return p.field ? (s.*p.field).has_value() : (p.list && !(s.*p.list).empty());
}

bool anySetFor(const ChainSettings& s, const std::string& key)
{
    const auto& all = samplerParameters();
    return std::any_of(all.begin(), all.end(),
                       [&](const SamplerParameter& p) { return p.stage == key && isSet(s, p); });
}

// The settings that configure the stage `key`, as made by stageFor(): those set by the user
// whose parameter that stage declares. Mirostat's tau and eta alone do not switch it on.
std::vector<const SamplerParameter*> settingsOf(const ChainSettings& s, const std::string& key,
                                                const SamplerStage& stage, int mirostat)
{
    std::vector<const SamplerParameter*> out;
    if (key == "mirostat" && mirostat == 0)
        return out;
    for (const SamplerParameter& p : samplerParameters()) {
        if (isSet(s, p) && p.stage == key && stage.findParameter(p.stageParameter))
            out.push_back(&p);
    }
    return out;
}

std::optional<std::string> configure(SamplerStage& stage, const ChainSettings& s,
                                     const std::vector<const SamplerParameter*>& settings)
{
    for (const SamplerParameter* p : settings)
        if (auto bad = p->field ? stage.setNumber(p->stageParameter, *(s.*p->field))
                                : stage.setParameter(p->stageParameter, s.*p->list))
            return bad;
    if (s.minKeep && stage.findParameter("min-keep"))
        if (auto bad = stage.setNumber("min-keep", *s.minKeep))
            return bad;
    return stage.validate();
}

}  // namespace

Result<SamplerChain> buildChain(const ChainSettings& s, Semantics semantics)
{
    if (s.minKeep && !presetAccepts(*findSamplerParameter("min-keep"), semantics))
        return Error{"min-keep: " + semanticsName(semantics) + " has no min_keep"};
    if (s.mirostat && *s.mirostat != 0 && *s.mirostat != 1 && *s.mirostat != 2)
        return Error{"mirostat: must be 0 (off), 1 or 2, got " + formatDouble(*s.mirostat)};
    const bool dynamic = s.dynatempRange && *s.dynatempRange != 0.0;
    const int mirostat = s.mirostat ? static_cast<int>(*s.mirostat) : 0;
    if (!s.order.empty())
        if (auto bad = checkOrder(s.order, semantics))
            return Error{*bad};
    if (auto bad = checkArithmetic(s.arithmetic))
        return Error{*bad};

    // llama.cpp's mirostat replaces the whole chain with bias -> temperature -> mirostat.
    std::vector<std::string> order = s.order.empty() ? presetOrder(semantics) : s.order;
    if (mirostat != 0 && semantics == Semantics::LlamaCpp)
        order = {"logit-bias", "temperature", "mirostat"};

    // Every stage of the lesson's chain (the zoo's every stage) the user asked for: the stages of
    // another preset are errors naming the option that asked for them.
    SamplerChain chain(semantics);
    chain.setArithmetic(resolveArithmetic(s.arithmetic, semantics));
    std::map<std::string, std::unique_ptr<SamplerStage>> asked;
    for (const std::string& key : presetOrder(Semantics::Lesson)) {
        if (!anySetFor(s, key) && !(key == "mirostat" && mirostat != 0))
            continue;  // a stage is only made when asked for: this runs on every slider step
        auto stage = makeStage(stageFor(key, dynamic, mirostat), semantics);
        if (!stage)
            return Error{stage.error()};
        const auto settings = settingsOf(s, key, *stage.value(), mirostat);
        if (settings.empty() && !(key == "mirostat" && mirostat != 0))
            continue;
        if (std::find(order.begin(), order.end(), key) == order.end()) {
            const auto& full = presetOrder(semantics);
            if (mirostat != 0 && std::find(full.begin(), full.end(), key) != full.end())
                continue;  // llama.cpp's mirostat chain leaves these samplers out
            if (auto bad = stage.value()->validate())
                return Error{*bad};
            const std::string option = key == "mirostat" ? std::string("mirostat") : settings.front()->name;
            return Error{stage.value()->name() + ": not part of the " + semanticsName(semantics) + " chain (option --" +
                         option + ")"};
        }
        if (auto bad = configure(*stage.value(), s, settings))
            return Error{*bad};
        asked[key] = std::move(stage).value();
    }
    for (const std::string& key : order)
        if (auto found = asked.find(key); found != asked.end())
            chain.add(std::move(found->second));
    return chain;
}

Result<ChainSettings> chainSettingsOf(const SamplerChain& chain)
{
    const Semantics semantics = chain.semantics();
    ChainSettings s;
    s.arithmetic = arithmeticName(chain.arithmetic());
    std::vector<std::string> keys;  // the chain's stages, by presetOrder() name
    for (const auto& stage : chain.stages()) {
        const std::string name = stage->name();
        if (name == "greedy") {
            s.temperature = 0.0;
            continue;
        }
        const std::string key = presetStageKey(name);
        if (std::find(keys.begin(), keys.end(), key) != keys.end())
            return Error{name + ": listed twice (the settings hold each stage once)"};
        const bool llamaMirostat = semantics == Semantics::LlamaCpp && key == "mirostat";
        if (!presetHasStage(semantics, key) && !llamaMirostat)
            return Error{name + ": not part of the " + semanticsName(semantics) + " chain"};
        if (!llamaMirostat)
            keys.push_back(key);
        if (key == "mirostat")
            s.mirostat = name == "mirostat-v1" ? 1.0 : 2.0;
        for (const SamplerParameter& p : samplerParameters()) {
            if (p.stage != key || !stage->findParameter(p.stageParameter))
                continue;
            if (p.field)
                s.*p.field = stage->number(p.stageParameter);
            else if (p.list)
                s.*p.list = stage->text(p.stageParameter);
        }
        if (const Parameter* keep = stage->findParameter("min-keep"); keep && keep->number != keep->spec.defaultValue) {
            if (s.minKeep && *s.minKeep != keep->number)
                return Error{name + ": min-keep " + formatDouble(keep->number) + " differs from " +
                             formatDouble(*s.minKeep) + " set on an earlier stage (the settings hold one)"};
            s.minKeep = keep->number;
        }
    }
    // llama.cpp's mirostat replaces its chain with logit-bias -> temperature -> mirostat.
    if (s.mirostat && semantics == Semantics::LlamaCpp)
        for (const std::string& key : keys)
            if (key != "logit-bias" && key != "temperature")
                return Error{"mirostat: llama.cpp's mirostat chain is logit-bias, temperature, mirostat; " + key +
                             " cannot stay in it"};
    // The preset's order unless the chain's stages stand in another: then theirs first, the
    // preset's others after them (they are off, so where they stand does not matter).
    std::vector<std::string> order;
    for (const std::string& key : presetOrder(semantics))
        if (std::find(keys.begin(), keys.end(), key) != keys.end())
            order.push_back(key);
    if (order != keys && !(s.mirostat && semantics == Semantics::LlamaCpp)) {
        s.order = keys;
        for (const std::string& key : presetOrder(semantics))
            if (std::find(keys.begin(), keys.end(), key) == keys.end())
                s.order.push_back(key);
    }
    return s;
}

}  // namespace logitlab::engine
