// A decoding setting as the junk-risk experiment sees it: a label and a function from logits to
// the surviving candidates. The lesson's SamplerSettings make one today; a richer sampler chain
// (min-p, presets) plugs in by supplying its own function, without the experiment changing.
#pragma once

#include "engine/sampler/candidate.h"
#include "engine/sampler/sampler_settings.h"

#include <Eigen/Core>
#include <functional>
#include <string>

namespace logitlab::engine {

struct Decoder {
    std::string label;        // short name for tables and legends, e.g. "top-p 0.9"
    std::string description;  // the full chain, e.g. "temperature=1,top-p=0.9"
    std::function<CandidateList(const Eigen::ArrayXd& logits)> candidates;
};

// Precondition: validateSettings(settings) passed.
Decoder decoderFromSettings(std::string label, const SamplerSettings& settings);

}  // namespace logitlab::engine
