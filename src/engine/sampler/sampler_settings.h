// The lesson's sampler settings: { temperature, topK?, topP? }, and their validation.
#pragma once

#include <optional>
#include <string>

namespace logitlab::engine {

struct SamplerSettings {
    double temperature = 1.0;    // 0 means greedy (argmax); otherwise > 0 and finite
    std::optional<int> topK;     // >= 1 when set
    std::optional<double> topP;  // in (0, 1] when set

    friend bool operator==(const SamplerSettings&, const SamplerSettings&) = default;
};

// Returns a message naming the offending field, or nothing when the settings are legal.
std::optional<std::string> validateSettings(const SamplerSettings& settings);

// Short human form, e.g. "temperature=1,top-p=0.9" (the same spelling the CLI accepts).
std::string describeSettings(const SamplerSettings& settings);

}  // namespace logitlab::engine
