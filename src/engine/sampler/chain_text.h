// The compact text form of a chain: stages separated by ',', each `name`, `name=value` (its
// first parameter) and any number of `:key=value` for the others, e.g.
//   top-k=40,top-p=0.95:min-keep=1,min-p=0.05,xtc:probability=0.5:threshold=0.1,temperature=0.8
// List values use '/' between items (logit-bias=5@-1.5/7@2, dry:breakers=13/198).
#pragma once

#include "engine/core/result.h"
#include "engine/sampler/sampler_chain.h"

#include <string>
#include <string_view>

namespace logitlab::engine {

// Parses and validates under `semantics`; errors name the stage and the parameter.
Result<SamplerChain> parseChain(std::string_view text, Semantics semantics);

// Every stage (off ones included unless activeOnly), parameters that differ from their
// defaults after the first one, which is always written.
std::string formatChain(const SamplerChain& chain, bool activeOnly = false);
std::string formatStage(const SamplerStage& stage);

}  // namespace logitlab::engine
