// Every sampler setting a user can give, declared once: its name (the CLI option and the key in
// every JSON file LogitLab writes), the older JSON spellings still read, where its value lives in
// ChainSettings, the stage and stage parameter it configures (whose declare() gives its kind,
// default and range in words, and whose name the chain text uses), the range the app's files and
// controls hold, the CLI help, and the Explorer's label, tooltip, group, decimals and step (plain
// strings here, translated at the UI edge). The CLI options, the JSON readers and writers, the
// chain built from settings and the Explorer's controls are all derived from this one table.
#pragma once

#include "engine/sampler/chain_settings.h"
#include "engine/sampler/semantics.h"
#include "engine/stages/sampler_stage.h"

#include <optional>
#include <string>
#include <vector>

namespace logitlab::engine {

// The Explorer's tab a setting sits on; the lesson's three, the token lists and the choices (the
// arithmetic: a toggle) have their own widgets.
enum class ParameterGroup { Lesson, Filters, Penalties, Adaptive, TokenList, Choice };

struct SamplerParameter {
    const char* name = "";                                  // "top-p", "xtc-probability": CLI option and JSON key
    std::vector<const char*> oldKeys{};                     // spellings of earlier files, still read: "topP", "top_p"
    std::optional<double> ChainSettings::*field = nullptr;  // a number ...
    std::string ChainSettings::*list = nullptr;             // ... or a token list in the stage's spelling
    std::string ChainSettings::*choice = nullptr;           // ... or one of `choices` (the arithmetic)
    std::vector<const char*> choices{};
    const char* stage = "";            // presetOrder() key of the stage it configures ("" for min-keep)
    const char* stageName = "";        // the stage (stageNames()) that declares it; "" for mirostat's version
    const char* stageParameter = "";   // its name in that stage and in the chain text
    std::vector<Semantics> presets{};  // empty: the presets whose chain has `stage`
    double minimum = 0.0;              // the range the app's files and controls hold; each
    double maximum = 0.0;              // preset's own rules are the stage's validate()
    std::optional<double> notSet{};    // the control's "not set" value when it is not the stage's default
    const char* help = "";             // the CLI's one-line help
    const char* valueName = "value";   // the CLI's name for the value
    ParameterGroup group = ParameterGroup::Filters;
    const char* label = "";  // the Explorer's label, '&' before the accelerator
    const char* tooltip = "";
    int decimals = 2;
    double step = 1.0;
    const char* notSetText = "";  // the control's text at "not set" when that is its minimum
};

// In the Explorer's order: the lesson's three, then the tabs' settings, then the token lists.
const std::vector<SamplerParameter>& samplerParameters();

// The numeric settings beyond the lesson's three (temperature, top-k, top-p).
const std::vector<SamplerParameter>& chainSettingFields();

// nullptr when no setting has that name.
const SamplerParameter* findSamplerParameter(std::string_view name);

// The stage's declaration of the parameter (kind, default, range in words); nullptr for mirostat's
// version, which picks a stage rather than configuring one.
const ParameterSpec* stageSpec(const SamplerParameter& parameter);

// A whole number (top-k, min-keep, windows, mirostat's version) or a real.
bool isWholeNumber(const SamplerParameter& parameter);

// The value a control holds when the user has not set it: notSet, else the stage's default.
double notSetValue(const SamplerParameter& parameter);

// The preset's library has this setting.
bool presetAccepts(const SamplerParameter& parameter, Semantics semantics);

}  // namespace logitlab::engine
