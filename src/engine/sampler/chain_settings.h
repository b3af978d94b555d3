// Sampler values as a user gives them (each optional: a stage not asked for is off), turned into
// a chain by a semantics preset: the preset fixes the order and the rules, not the values.
#pragma once

#include "engine/core/result.h"
#include "engine/sampler/sampler_chain.h"

#include <optional>
#include <string>
#include <vector>

namespace logitlab::engine {

struct ChainSettings {
    std::optional<double> temperature;
    std::optional<double> dynatempRange;  // dynamic temperature delta (llama.cpp)
    std::optional<double> dynatempExponent;
    std::optional<double> topK;
    std::optional<double> topP;
    std::optional<double> minP;
    std::optional<double> typical;
    std::optional<double> epsilon;
    std::optional<double> eta;
    std::optional<double> topNSigma;
    std::optional<double> xtcProbability;
    std::optional<double> xtcThreshold;
    std::optional<double> minKeep;
    std::optional<double> penaltyLastN;
    std::optional<double> repeatPenalty;
    std::optional<double> frequencyPenalty;
    std::optional<double> presencePenalty;
    std::optional<double> noRepeatNgram;
    std::optional<double> mirostat;  // 0 off, 1 or 2
    std::optional<double> mirostatTau;
    std::optional<double> mirostatEta;
    std::optional<double> dryMultiplier;
    std::optional<double> dryBase;
    std::optional<double> dryAllowedLength;
    std::optional<double> dryLastN;
    std::string dryBreakers;  // ids separated by '/'
    std::string logitBias;    // id@value pairs separated by '/'
    // "exact" or "library" (arithmetic.h); empty: the preset's default.
    std::string arithmetic;
    // The stage order, by stage name: empty means the preset's own order; otherwise every stage
    // of the preset's chain once, in the order the user wants (llama.cpp's --samplers).
    std::vector<std::string> order;

    friend bool operator==(const ChainSettings&, const ChainSettings&) = default;
};

// Which setting sets which stage parameter, its option name and its help are in
// sampler_parameters.h (samplerParameters()).

// The key in presetOrder() of a stage by its name: "mirostat-v2" -> "mirostat",
// "dynamic-temperature" -> "temperature", others unchanged.
std::string presetStageKey(const std::string& stageName);

// The preset's stage that `field` configures is part of the preset's chain.
bool presetHasStage(Semantics semantics, const std::string& stage);

// The library's own default values filled into the settings the user left unset:
// llama.cpp top-k 40, top-p 0.95, min-p 0.05, temperature 0.8 (penalty window 64, rest off);
// hf top-k 50 (temperature 1, the sampling defaults of generate(do_sample=True)); vllm and the
// lesson have no cut by default.
ChainSettings withLibraryDefaults(ChainSettings settings, Semantics semantics);

// An arithmetic name the chain cannot use ("arithmetic: 'fast' is not one of exact, library").
std::optional<std::string> checkArithmetic(const std::string& choice);

// The preset's stage order, by stage name.
const std::vector<std::string>& presetOrder(Semantics semantics);

// Builds, configures and validates the preset's chain. Stages whose values are "off" stay in
// the chain but inactive; a stage the preset's library does not have is an error naming it.
Result<SamplerChain> buildChain(const ChainSettings& settings, Semantics semantics);

// The inverse, for a chain written as text (a loop's --chain, parseChain()): the settings whose
// buildChain() gives a chain that cuts and weighs the same. A chain no settings can hold is an
// error naming the stage: one the preset's chain has not, a stage listed twice, min-keep set to
// two values; a stage order other than the preset's goes into `order`. Greedy becomes
// temperature 0 (the Explorer's greedy); the arithmetic is the chain's.
Result<ChainSettings> chainSettingsOf(const SamplerChain& chain);

}  // namespace logitlab::engine
