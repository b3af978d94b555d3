// The sampler-chain options `candidates` and `sample` share beyond the lesson's three:
// --semantics, --chain, --defaults, every further sampler's values, --history and --probs.
// Reading them checks the spelling; building the chain checks each value against the preset.
#pragma once

#include "chain_settings.h"
#include "command_line.h"
#include "distribution.h"
#include "sampler_chain.h"
#include "semantics.h"

#include <QCommandLineParser>
#include <QJsonObject>
#include <QString>

#include <Eigen/Core>
#include <optional>
#include <vector>

namespace logitlab::cli {

struct ChainRequest {
    engine::Semantics semantics = engine::Semantics::Lesson;
    std::optional<std::string> chainText;   // --chain, instead of the per-stage options
    engine::ChainSettings settings;         // from the per-stage options
    bool defaults = false;                  // --defaults: fill in the library's default values
    std::vector<std::int32_t> history;      // --history, oldest first
    bool lessonOptionsOnly = true;          // nothing beyond --temperature/--top-k/--top-p was given
};

void addChainOptions(QCommandLineParser& parser);

// Throws UsageError naming the option when a value cannot be read.
ChainRequest readChainOptions(const QCommandLineParser& parser);

// The chain `request` asks for under `semantics`, validated for a vocabulary of `vocabSize`.
// Throws UsageError naming the stage and parameter (or the option) when anything is wrong.
engine::SamplerChain buildRequestedChain(const ChainRequest& request, engine::Semantics semantics,
                                         std::size_t vocabSize);

// A distribution and the chain to run on it.
struct PreparedChain {
    engine::Distribution distribution;
    engine::SamplerChain chain{engine::Semantics::Lesson};
};

// Reads the logits and builds the requested chain under `semantics`. The lesson's own options
// (--temperature, --top-k, --top-p alone) are read and checked exactly as before chains existed.
PreparedChain prepareChain(const QCommandLineParser& parser, const ChainRequest& request, engine::Semantics semantics);

// {"temperature":1,"topK":40,...}: the values given (temperature always), in the lesson's spelling.
QJsonObject chainSettingsJson(const engine::ChainSettings& settings);

// --probs: "0.5,0.3,0.2" -> ln p each (0 gives -inf). Throws UsageError naming the item.
Eigen::ArrayXd logitsFromProbabilities(const QString& text);

}  // namespace logitlab::cli
