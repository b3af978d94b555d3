// A decoding setting of an experiment file ("settings[i]" of junk risk): the lesson's three
// values or a stateless chain under a semantics preset; its reader, its JSON, the decoder it
// makes, and the names files use for presets, arithmetics and generators.
#pragma once

#include "app/io/json_object_reader.h"
#include "engine/core/result.h"
#include "engine/experiments/decoder.h"
#include "engine/sampler/sampler_chain.h"
#include "engine/sampler/sampler_settings.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace logitlab::app {

// A decoding setting of a junk-risk file: the lesson's three values, or any stateless chain
// of the zoo under a semantics preset ({"label", "semantics", "chain"}, as in seed sweeps).
struct SettingSpec {
    QString label;
    engine::SamplerSettings sampler;  // when `chain` is empty
    QString semantics = {};           // with `chain`: "lesson", "llama.cpp", "hf", "vllm"
    QString chain = {};               // the chain text, e.g. "top-k=40,min-p=0.05,temperature=0.8"
    QString arithmetic = {};          // with `chain`: "exact" or "library"; empty: the preset's default

    bool isChain() const { return !chain.isEmpty(); }
    // "temperature=1,top-p=0.9" or "llama.cpp: min-p=0.05,temperature=0.8".
    QString describe() const;
    // The arithmetic the setting runs in, by name ("exact" for the lesson's own settings).
    QString arithmeticUsed() const;

    friend bool operator==(const SettingSpec&, const SettingSpec&) = default;
};

QStringList rngNameList();
QStringList semanticsNames();   // the presets, by the names files use
QStringList arithmeticNames();  // "exact", "library"
// The chain's arithmetic: `choice` ("exact", "library") or the preset's default when empty.
void applyArithmetic(engine::SamplerChain& chain, const QString& choice);
// The name of the arithmetic a chain under `semantics` runs in with `choice` ("exact", "library").
QString arithmeticUsed(const QString& semantics, const QString& choice);

// The decoder a setting describes; an error names the chain's problem (a stateful stage).
engine::Result<engine::Decoder> settingDecoder(const SettingSpec& setting);

// Reads one "settings[i]" object. Throws JsonFieldError.
SettingSpec readSetting(JsonObjectReader& r);
QJsonObject settingToJson(const SettingSpec& s);

}  // namespace logitlab::app
