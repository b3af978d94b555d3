// The options `candidates` and `sample` share: where the logits come from, the token names,
// and the lesson's sampler settings. Reading them validates everything before any work starts.
#pragma once

#include "cli/command_line.h"
#include "engine/sampler/distribution.h"
#include "engine/sampler/sampler_settings.h"

#include <QCommandLineOption>
#include <QCommandLineParser>

namespace logitlab::cli {

// The distribution with what a vocabulary file adds: the tokenizer's raw spelling per id (when
// it differs from the readable names) and a note about ids without a token.
struct DistributionInput {
    engine::Distribution distribution;
    std::vector<std::string> rawTokens;
    std::string vocabularyNote;
};

struct SamplerInput {
    DistributionInput input;
    engine::SamplerSettings settings;
};

QList<QCommandLineOption> samplerOptions();

// The options of engine::samplerParameters(): the lesson's three (temperature, top-k, top-p), or
// every other setting; each with the table's name, help and value name.
QList<QCommandLineOption> parameterOptions(bool lesson);

// The logits (--logits, --logits-file with --array/--row/--batch, --probs, or --model with
// --prompt) and token names (--tokens or --vocabulary; a model names its own) alone.
DistributionInput readDistributionOptions(const QCommandLineParser& parser);

// Throws UsageError naming the option or the file and line when anything is wrong.
SamplerInput readSamplerOptions(const QCommandLineParser& parser);

}  // namespace logitlab::cli
