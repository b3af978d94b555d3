// `logitlab-cli candidates`: the survivors of the sampler with their probabilities.
#pragma once

#include "cli/command_spec.h"

#include <QJsonArray>
#include <QJsonObject>

#include "cli/chain_options.h"
#include "engine/sampler/candidate.h"
#include "engine/sampler/distribution.h"
#include "engine/sampler/sampler_settings.h"

namespace logitlab::cli {

int runCandidates(CommandContext& context);

// "note: <file> names 151,643 of the 151,936 ids; ..." on stderr when a vocabulary left ids unnamed.
void printVocabularyNote(CommandContext& context, const PreparedChain& prepared);
CommandSpec candidatesCommand();

// [{"id","token","p","p_raw"},...], with "raw" (the tokenizer's spelling) when `rawTokens` has one per id.
QJsonArray survivorsJson(const engine::CandidateList& survivors, const engine::Distribution& distribution,
                         const std::vector<std::string>& rawTokens = {});

}  // namespace logitlab::cli
