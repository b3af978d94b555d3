// The sampler-chain options `candidates` and `sample` share beyond the lesson's three:
// --semantics, --chain, --defaults, every further sampler's values, --history and --probs.
// Reading them checks the spelling; building the chain checks each value against the preset.
#pragma once

#include "cli/command_line.h"
#include "engine/sampler/chain_settings.h"
#include "engine/sampler/distribution.h"
#include "engine/sampler/sampler_chain.h"
#include "engine/sampler/sampler_parameters.h"
#include "engine/sampler/semantics.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QJsonObject>
#include <QString>

#include <Eigen/Core>
#include <optional>
#include <vector>

namespace logitlab::cli {

struct ChainRequest {
    engine::Semantics semantics = engine::Semantics::Lesson;
    std::optional<std::string> chainText;  // --chain, instead of the per-stage options
    engine::ChainSettings settings;        // the numbers of the per-stage options
    // The token-list options (--logit-bias, --dry-breakers) and --history as typed: tokens by id
    // or name, resolved against the distribution's token names when the chain is built.
    std::vector<std::pair<const engine::SamplerParameter*, QString>> tokenLists;
    QString history;
    bool defaults = false;          // --defaults: fill in the library's default values
    bool lessonOptionsOnly = true;  // nothing beyond --temperature/--top-k/--top-p was given
};

QList<QCommandLineOption> chainOptions();

// Throws UsageError naming the option when a value cannot be read.
ChainRequest readChainOptions(const QCommandLineParser& parser);

// A distribution, the chain to run on it, the settings it was built from (the token lists in the
// stage's spelling) and the history (ids, oldest first).
struct PreparedChain {
    engine::Distribution distribution;
    std::vector<std::string> rawTokens;  // the tokenizer's spelling per id, or empty (--vocabulary)
    std::string vocabularyNote;          // ids without a token, or empty
    engine::SamplerChain chain{engine::Semantics::Lesson};
    engine::ChainSettings settings;
    std::vector<std::int32_t> history;
};

// Builds the chain `request` asks for under `semantics` on `prepared.distribution`, resolving
// the token lists and the history against its tokens. Throws UsageError naming the stage and
// parameter (or the option) when anything is wrong.
void buildRequestedChain(PreparedChain& prepared, const ChainRequest& request, engine::Semantics semantics);

// Reads the logits and builds the requested chain under `semantics`. The lesson's own options
// (--temperature, --top-k, --top-p alone) are read and checked exactly as before chains existed.
PreparedChain prepareChain(const QCommandLineParser& parser, const ChainRequest& request, engine::Semantics semantics);

// {"temperature":1,"top-k":40,...}: the values given (temperature always), spelt as the options.
QJsonObject chainSettingsJson(const engine::ChainSettings& settings);

// The "settings" of the --json output: every value given (even one that leaves its stage off),
// or, for a --chain text or the lesson's options alone, the lesson's three the chain amounts to.
QJsonObject requestedSettingsJson(const ChainRequest& request, const PreparedChain& prepared);

// --probs: "0.5,0.3,0.2" -> ln p each (0 gives -inf). Throws UsageError naming the item.
Eigen::ArrayXd logitsFromProbabilities(const QString& text);

}  // namespace logitlab::cli
