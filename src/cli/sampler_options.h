// The options `candidates` and `sample` share: where the logits come from, the token names,
// and the lesson's sampler settings. Reading them validates everything before any work starts.
#pragma once

#include "command_line.h"
#include "distribution.h"
#include "sampler_settings.h"

#include <QCommandLineOption>
#include <QCommandLineParser>

namespace logitlab::cli {

struct SamplerInput {
    engine::Distribution distribution;
    engine::SamplerSettings settings;
};

QList<QCommandLineOption> samplerOptions();

// The options of engine::samplerParameters(): the lesson's three (temperature, top-k, top-p), or
// every other setting; each with the table's name, help and value name.
QList<QCommandLineOption> parameterOptions(bool lesson);

// The logits (--logits, --logits-file or --probs) and token names alone.
engine::Distribution readDistributionOptions(const QCommandLineParser& parser);

// Throws UsageError naming the option or the file and line when anything is wrong.
SamplerInput readSamplerOptions(const QCommandLineParser& parser);

}  // namespace logitlab::cli
