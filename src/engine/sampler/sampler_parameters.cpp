#include "engine/sampler/sampler_parameters.h"

#include "engine/stages/stage_factory.h"

#include <algorithm>
#include <map>
#include <memory>

namespace logitlab::engine {

namespace {

using S = ChainSettings;
using G = ParameterGroup;

}  // namespace

const std::vector<SamplerParameter>& samplerParameters()
{
    // One parameter per entry, its fields packed as the table reads best (not one per line).
    // clang-format off
    static const std::vector<SamplerParameter> all{
        // The lesson's three.
        {.name = "temperature", .field = &S::temperature, .stage = "temperature", .stageName = "temperature",
         .stageParameter = "t", .minimum = 0.0, .maximum = 1000.0,
         .help = "Temperature: 0 is greedy (argmax), otherwise > 0. Default 1.", .valueName = "T", .group = G::Lesson,
         .label = "&Temperature",
         .tooltip = "Divides every logit before softmax: below 1 sharpens the distribution, above 1 flattens it, 0 "
                    "takes the argmax.",
         .decimals = 2, .step = 0.05},
        {.name = "top-k", .oldKeys = {"topK", "top_k"}, .field = &S::topK, .stage = "top-k", .stageName = "top-k",
         .stageParameter = "k", .minimum = 1.0, .maximum = 2147483647.0, .notSet = 0.0,
         .help = "Keep the K most likely tokens (K >= 1). Default: off.", .valueName = "K", .group = G::Lesson,
         .label = "Top-&k", .tooltip = "Keeps only the K most likely tokens; off keeps them all.", .decimals = 0,
         .step = 1.0, .notSetText = "off"},
        {.name = "top-p", .oldKeys = {"topP", "top_p"}, .field = &S::topP, .stage = "top-p", .stageName = "top-p",
         .stageParameter = "p", .minimum = 0.0, .maximum = 1.0, .notSet = 0.0,
         .help = "Keep the smallest top set whose total exceeds P, in (0, 1]. Default: off.", .valueName = "P",
         .group = G::Lesson, .label = "Top-&p",
         .tooltip = "Keeps the smallest set of top tokens whose total probability exceeds P; off keeps them all.",
         .decimals = 3, .step = 0.05, .notSetText = "off"},

        // Filters.
        {.name = "min-p", .oldKeys = {"minP"}, .field = &S::minP, .stage = "min-p", .stageName = "min-p",
         .stageParameter = "p", .minimum = 0.0, .maximum = 1.0, .help = "Min-p: keep tokens with p >= P * p_max.",
         .group = G::Filters, .label = "&Min-p",
         .tooltip = "Keeps tokens whose probability is at least min-p times the top token's; off keeps them all.",
         .decimals = 3, .step = 0.01, .notSetText = "off"},
        {.name = "typical", .field = &S::typical, .stage = "typical", .stageName = "typical", .stageParameter = "p",
         .minimum = 0.0, .maximum = 1.0, .notSet = 0.0, .help = "Locally typical sampling mass (llama.cpp, hf).",
         .group = G::Filters, .label = "T&ypical",
         .tooltip = "Keeps the tokens closest to the distribution's typical surprise, up to this much probability; "
                    "off keeps them all.",
         .decimals = 3, .step = 0.01, .notSetText = "off"},
        {.name = "epsilon", .field = &S::epsilon, .stage = "epsilon", .stageName = "epsilon",
         .stageParameter = "epsilon", .minimum = 0.0, .maximum = 0.999, .help = "Epsilon cutoff (hf).",
         .group = G::Filters, .label = "Epsilon",
         .tooltip = "Hugging Face's epsilon cutoff: drops every token whose probability is below epsilon.",
         .decimals = 4, .step = 0.0005, .notSetText = "off"},
        {.name = "eta", .field = &S::eta, .stage = "eta", .stageName = "eta", .stageParameter = "epsilon",
         .minimum = 0.0, .maximum = 0.999, .help = "Eta cutoff (hf).", .group = G::Filters, .label = "Eta",
         .tooltip = "Hugging Face's eta cutoff: like epsilon, but the bar rises when the distribution is peaked.",
         .decimals = 4, .step = 0.0005, .notSetText = "off"},
        {.name = "top-n-sigma", .field = &S::topNSigma, .stage = "top-n-sigma", .stageName = "top-n-sigma",
         .stageParameter = "n", .minimum = 0.0, .maximum = 10.0, .notSet = 0.0,
         .help = "Top-n-sigma: keep logits >= max - N sigma (llama.cpp).", .group = G::Filters, .label = "Top-n-σ",
         .tooltip = "Keeps logits within n standard deviations of the largest logit (llama.cpp).", .decimals = 2,
         .step = 0.1, .notSetText = "off"},
        {.name = "min-keep", .field = &S::minKeep, .stageName = "top-p", .stageParameter = "min-keep",
         .presets = {Semantics::LlamaCpp, Semantics::Hf}, .minimum = 0.0, .maximum = 1000.0,
         .help = "min_keep for the truncating samplers (llama.cpp, hf).", .group = G::Filters, .label = "Min keep",
         .tooltip = "The truncating samplers keep at least this many tokens (llama.cpp and Hugging Face).",
         .decimals = 0, .step = 1.0, .notSetText = "default"},

        // Penalties.
        {.name = "repeat-penalty", .field = &S::repeatPenalty, .stage = "penalties", .stageName = "penalties",
         .stageParameter = "repeat", .minimum = 0.0, .maximum = 10.0, .notSet = 0.0,
         .help = "Repetition penalty (> 0; 1 is off).", .group = G::Penalties, .label = "&Repeat",
         .tooltip = "Divides the positive logits (multiplies the negative ones) of tokens in the context by this; 1 "
                    "is off.",
         .decimals = 2, .step = 0.05, .notSetText = "off"},
        {.name = "frequency-penalty", .field = &S::frequencyPenalty, .stage = "penalties", .stageName = "penalties",
         .stageParameter = "frequency", .minimum = -2.0, .maximum = 2.0,
         .help = "Frequency penalty (llama.cpp, vllm).", .group = G::Penalties, .label = "&Frequency",
         .tooltip = "Subtracts this times the number of times a token occurs in the context from its logit.",
         .decimals = 2, .step = 0.05},
        {.name = "presence-penalty", .field = &S::presencePenalty, .stage = "penalties", .stageName = "penalties",
         .stageParameter = "presence", .minimum = -2.0, .maximum = 2.0, .help = "Presence penalty (llama.cpp, vllm).",
         .group = G::Penalties, .label = "Pre&sence",
         .tooltip = "Subtracts this from the logit of every token that occurs in the context at all.", .decimals = 2,
         .step = 0.05},
        {.name = "penalty-last-n", .field = &S::penaltyLastN, .stage = "penalties", .stageName = "penalties",
         .stageParameter = "last-n", .minimum = -1.0, .maximum = 100'000.0, .notSet = -2.0,
         .help = "Penalties look at the last N tokens of the history (llama.cpp; -1 all).", .group = G::Penalties,
         .label = "Penalty window",
         .tooltip = "How many of the last context tokens the penalties look at; -1 is all of them, default is the "
                    "preset's (llama.cpp 64).",
         .decimals = 0, .step = 1.0, .notSetText = "default"},
        {.name = "no-repeat-ngram", .field = &S::noRepeatNgram, .stage = "no-repeat-ngram",
         .stageName = "no-repeat-ngram", .stageParameter = "n", .minimum = 0.0, .maximum = 10.0,
         .help = "Ban tokens completing a repeated N-gram of the history (hf).", .group = G::Penalties,
         .label = "No-repeat n-gram",
         .tooltip = "Bans any token that would repeat an n-gram already in the context (Hugging Face).",
         .decimals = 0, .step = 1.0, .notSetText = "off"},
        {.name = "dry-multiplier", .field = &S::dryMultiplier, .stage = "dry", .stageName = "dry",
         .stageParameter = "multiplier", .minimum = 0.0, .maximum = 10.0,
         .help = "DRY multiplier (llama.cpp; 0 is off).", .group = G::Penalties, .label = "DRY multiplier",
         .tooltip = "DRY penalises a token that would extend a sequence repeated from the context; 0 is off "
                    "(llama.cpp).",
         .decimals = 2, .step = 0.05, .notSetText = "off"},
        {.name = "dry-base", .field = &S::dryBase, .stage = "dry", .stageName = "dry", .stageParameter = "base",
         .minimum = 1.0, .maximum = 10.0, .help = "DRY base, default 1.75.", .group = G::Penalties,
         .label = "DRY base",
         .tooltip = "The DRY penalty grows as base to the power of the repeat's length beyond the allowed length.",
         .decimals = 2, .step = 0.05},
        {.name = "dry-allowed-length", .field = &S::dryAllowedLength, .stage = "dry", .stageName = "dry",
         .stageParameter = "allowed-length", .minimum = 0.0, .maximum = 100.0, .help = "DRY allowed length, default 2.",
         .group = G::Penalties, .label = "DRY allowed length",
         .tooltip = "Repeats up to this many tokens long are not penalised by DRY.", .decimals = 0, .step = 1.0},
        {.name = "dry-penalty-last-n", .field = &S::dryLastN, .stage = "dry", .stageName = "dry",
         .stageParameter = "last-n", .minimum = -1.0, .maximum = 100'000.0,
         .help = "DRY window over the history, default -1 (all).", .group = G::Penalties, .label = "DRY window",
         .tooltip = "How many of the last context tokens DRY looks at.", .decimals = 0, .step = 1.0,
         .notSetText = "all"},

        // Adaptive.
        {.name = "xtc-probability", .field = &S::xtcProbability, .stage = "xtc", .stageName = "xtc",
         .stageParameter = "probability", .minimum = 0.0, .maximum = 1.0,
         .help = "XTC: chance of excluding the top choices (llama.cpp).", .group = G::Adaptive,
         .label = "&XTC probability",
         .tooltip = "Exclude Top Choices: with this chance, removes every token above the threshold except the "
                    "least likely of them (llama.cpp).",
         .decimals = 2, .step = 0.05, .notSetText = "off"},
        {.name = "xtc-threshold", .field = &S::xtcThreshold, .stage = "xtc", .stageName = "xtc",
         .stageParameter = "threshold", .minimum = 0.0, .maximum = 1.0,
         .help = "XTC: probability threshold, default 0.1 (llama.cpp).", .group = G::Adaptive,
         .label = "XTC threshold", .tooltip = "The probability a token needs for XTC to count it as a top choice.",
         .decimals = 3, .step = 0.01},
        {.name = "mirostat", .field = &S::mirostat, .stage = "mirostat", .minimum = 0.0, .maximum = 2.0,
         .notSet = 0.0, .help = "Mirostat version: 0 off, 1 or 2 (llama.cpp).", .group = G::Adaptive,
         .label = "Mi&rostat",
         .tooltip = "Mirostat 1 or 2 cuts the tail to aim at a target surprise; it replaces the llama.cpp chain "
                    "with temperature and mirostat.",
         .decimals = 0, .step = 1.0, .notSetText = "off"},
        {.name = "mirostat-tau", .field = &S::mirostatTau, .stage = "mirostat", .stageName = "mirostat-v2",
         .stageParameter = "tau", .minimum = 0.0, .maximum = 20.0, .help = "Mirostat target surprise, default 5.",
         .group = G::Adaptive, .label = "Mirostat τ",
         .tooltip = "Mirostat's target surprise, in bits: higher keeps more tokens.", .decimals = 2, .step = 0.1},
        {.name = "mirostat-eta", .field = &S::mirostatEta, .stage = "mirostat", .stageName = "mirostat-v2",
         .stageParameter = "eta", .minimum = 0.0, .maximum = 1.0, .help = "Mirostat learning rate, default 0.1.",
         .group = G::Adaptive, .label = "Mirostat η",
         .tooltip = "Mirostat's learning rate: how fast it corrects towards the target after each token.",
         .decimals = 3, .step = 0.01},
        {.name = "dynatemp-range", .field = &S::dynatempRange, .stage = "temperature",
         .stageName = "dynamic-temperature", .stageParameter = "delta", .minimum = 0.0, .maximum = 5.0,
         .help = "Dynamic temperature: +- range around the temperature (llama.cpp).", .group = G::Adaptive,
         .label = "Dynamic T range",
         .tooltip = "Dynamic temperature: T moves within ± this range, lower when the model is sure (llama.cpp).",
         .decimals = 2, .step = 0.05, .notSetText = "off"},
        {.name = "dynatemp-exponent", .field = &S::dynatempExponent, .stage = "temperature",
         .stageName = "dynamic-temperature", .stageParameter = "exponent", .minimum = 0.0, .maximum = 10.0,
         .help = "Dynamic temperature exponent, default 1 (llama.cpp).", .group = G::Adaptive,
         .label = "Dynamic T exponent", .tooltip = "How sharply dynamic temperature follows the distribution's entropy.",
         .decimals = 2, .step = 0.1},

        // The arithmetic the cuts are decided in (docs/semantics.md, "Arithmetic").
        {.name = "arithmetic", .choice = &S::arithmetic, .choices = {"exact", "library"},
         .presets = {Semantics::Lesson, Semantics::LlamaCpp, Semantics::Hf, Semantics::Vllm},
         .help = "Arithmetic of the cuts: exact (double, the default) or library (float32, as the preset's "
                 "library computes).",
         .valueName = "exact|library", .group = G::Choice, .label = "&Library arithmetic (float32)",
         .tooltip = "Decide every cut as the preset's library does, in float32 with its own formulas and order, "
                    "instead of in exact (double) arithmetic. The lesson has only its own arithmetic."},

        // The token lists.
        {.name = "logit-bias", .list = &S::logitBias, .stage = "logit-bias", .stageName = "logit-bias",
         .stageParameter = "bias", .help = "Per-token bias, token:value,... by id or name (-inf bans).",
         .valueName = "list", .group = G::TokenList, .label = "Logit &bias",
         .tooltip = "Adds a value to chosen tokens' logits before anything else, as token:value pairs; -inf bans a "
                    "token."},
        {.name = "dry-breakers", .list = &S::dryBreakers, .stage = "dry", .stageName = "dry",
         .stageParameter = "breakers", .help = "DRY sequence-breaker tokens, by id or name, comma-separated.",
         .valueName = "ids", .group = G::TokenList, .label = "DRY breakers",
         .tooltip = "Tokens that end a repeated sequence for DRY (a newline, say), by name or #id."},
    };
    // clang-format on
    return all;
}

const std::vector<SamplerParameter>& chainSettingFields()
{
    static const std::vector<SamplerParameter> fields = [] {
        std::vector<SamplerParameter> out;
        for (const SamplerParameter& p : samplerParameters())
            if (p.field && p.group != ParameterGroup::Lesson)
                out.push_back(p);
        return out;
    }();
    return fields;
}

const SamplerParameter* findSamplerParameter(std::string_view name)
{
    const auto& all = samplerParameters();
    const auto found =
        std::find_if(all.begin(), all.end(), [name](const SamplerParameter& p) { return name == p.name; });
    return found == all.end() ? nullptr : &*found;
}

const ParameterSpec* stageSpec(const SamplerParameter& parameter)
{
    // One stage per setting, made under the first preset whose stage declares the parameter
    // (min-keep exists only under llama.cpp and hf) and kept for the program's life.
    static const auto stages = [] {
        std::map<std::string, std::unique_ptr<SamplerStage>> made;
        for (const SamplerParameter& p : samplerParameters()) {
            if (*p.stageName == '\0')
                continue;
            for (Semantics s : allSemantics()) {
                auto stage = makeStage(p.stageName, s);
                if (stage && stage.value()->findParameter(p.stageParameter)) {
                    made[p.name] = std::move(stage).value();
                    break;
                }
            }
        }
        return made;
    }();
    const auto found = stages.find(parameter.name);
    return found == stages.end() ? nullptr : &found->second->findParameter(parameter.stageParameter)->spec;
}

bool isWholeNumber(const SamplerParameter& parameter)
{
    const ParameterSpec* spec = stageSpec(parameter);
    return !spec || spec->kind == ParameterKind::Integer;  // mirostat's version is 0, 1 or 2
}

double notSetValue(const SamplerParameter& parameter)
{
    if (parameter.notSet)
        return *parameter.notSet;
    const ParameterSpec* spec = stageSpec(parameter);
    return spec ? spec->defaultValue : 0.0;
}

bool presetAccepts(const SamplerParameter& parameter, Semantics semantics)
{
    if (!parameter.presets.empty())
        return std::find(parameter.presets.begin(), parameter.presets.end(), semantics) != parameter.presets.end();
    return presetHasStage(semantics, parameter.stage);
}

}  // namespace logitlab::engine
