// A chain for experiments that draw many times from one fixed distribution (seed sweeps, junk
// risk): parsed from its text under a semantics preset, and refused when a stage's state would
// change after every draw (mirostat, XTC, penalties over the history), since those make the
// distribution change between draws.
#pragma once

#include "engine/core/result.h"
#include "engine/experiments/decoder.h"
#include "engine/sampler/sampler_chain.h"

#include <string>

namespace logitlab::engine {

// `semantics` by name ("lesson", "llama.cpp", "hf", "vllm"); `text` in the chain grammar
// ("top-k=40,temperature=0.8"). `purpose` ends the refusal: "a sweep over one fixed
// distribution needs a stateless chain".
Result<SamplerChain> parseStatelessChain(const std::string& semantics, const std::string& text,
                                         const std::string& purpose);

// A decoder whose candidates are the chain's survivors on the logits (no history).
Decoder decoderFromChain(std::string label, const SamplerChain& chain);

}  // namespace logitlab::engine
