// The lesson's situations as one-click presets: its example and exercise, and the settings it
// recommends for code completion, taglines and an autofix patch, each with the point it makes.
#pragma once

#include "engine/sampler/distribution.h"
#include "engine/sampler/sampler_settings.h"

#include <string>
#include <vector>

namespace logitlab::engine {

struct LessonPreset {
    std::string name;   // as the lesson names it, e.g. "Taglines (T = 0.9, top-p = 0.95)"
    std::string point;  // one sentence: what to look at
    Distribution distribution;
    SamplerSettings settings;
};

const std::vector<LessonPreset>& lessonPresets();

}  // namespace logitlab::engine
