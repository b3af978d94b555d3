#include "engine/sampler/lesson_presets.h"

#include "engine/sampler/lesson_examples.h"

namespace logitlab::engine {

const std::vector<LessonPreset>& lessonPresets()
{
    static const std::vector<LessonPreset> presets{
        {"users / data / items / result / banana",
         "At T = 1 the running total 0.577, 0.789, 0.918 passes 0.9 at 'items': three tokens survive.", lessonExample(),
         SamplerSettings{1.0, std::nullopt, 0.9}},
        {"=> { ( async //", "The exercise: three survive top-p 0.9 at T = 1 (0.471, 0.819, 0.924), two at T = 0.7.",
         lessonExercise(), SamplerSettings{1.0, std::nullopt, 0.9}},
        {"Code completion (T = 0)", "One right continuation: temperature 0 is the argmax, so 'users' every time.",
         lessonExample(), SamplerSettings{0.0, std::nullopt, std::nullopt}},
        {"Taglines (T = 0.9, top-p = 0.95)", "Many good answers: real randomness, with the junk tail cut off.",
         lessonExample(), SamplerSettings{0.9, std::nullopt, 0.95}},
        {"Autofix a lint error (greedy)",
         "One correct fix and a short output: greedy, where its repetition weakness never shows.", lessonExample(),
         SamplerSettings{0.0, std::nullopt, std::nullopt}},
    };
    return presets;
}

}  // namespace logitlab::engine
