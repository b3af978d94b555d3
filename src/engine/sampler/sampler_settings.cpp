#include "engine/sampler/sampler_settings.h"

#include "engine/core/number_format.h"

#include <cmath>

namespace logitlab::engine {

std::optional<std::string> validateSettings(const SamplerSettings& s)
{
    if (std::isnan(s.temperature))
        return "temperature: NaN is not a temperature";
    if (s.temperature < 0.0)
        return "temperature: must be 0 (greedy) or greater, got " + formatDouble(s.temperature);
    if (!std::isfinite(s.temperature))
        return "temperature: must be finite";
    if (s.topK && *s.topK < 1)
        return "top-k: must be at least 1, got " + std::to_string(*s.topK);
    if (s.topP) {
        if (std::isnan(*s.topP))
            return "top-p: NaN is not a probability";
        if (!(*s.topP > 0.0 && *s.topP <= 1.0))
            return "top-p: must be in (0, 1], got " + formatDouble(*s.topP);
    }
    return std::nullopt;
}

std::string describeSettings(const SamplerSettings& s)
{
    std::string out = "temperature=" + formatDouble(s.temperature);
    if (s.topK)
        out += ",top-k=" + std::to_string(*s.topK);
    if (s.topP)
        out += ",top-p=" + formatDouble(*s.topP);
    return out;
}

}  // namespace logitlab::engine
