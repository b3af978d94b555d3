#include "engine/experiments/decoder.h"

#include "engine/sampler/candidates.h"

namespace logitlab::engine {

Decoder decoderFromSettings(std::string label, const SamplerSettings& settings)
{
    return Decoder{std::move(label), describeSettings(settings),
                   [settings](const Eigen::ArrayXd& logits) { return candidates(logits, settings); }};
}

}  // namespace logitlab::engine
