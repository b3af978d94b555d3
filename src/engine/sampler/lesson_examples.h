// The two distributions the lesson works with, so the GUI, the demo and the tests share them.
#pragma once

#include "engine/sampler/distribution.h"

namespace logitlab::engine {

// [users, data, items, result, banana] with logits [3, 2, 1.5, 1, -2].
inline Distribution lessonExample()
{
    Distribution d;
    d.tokens = {"users", "data", "items", "result", "banana"};
    d.logits.resize(5);
    d.logits << 3.0, 2.0, 1.5, 1.0, -2.0;
    return d;
}

// The exercise: [=>, {, (, async, //] with logits [2.5, 2.2, 1.0, 0.3, -0.5].
inline Distribution lessonExercise()
{
    Distribution d;
    d.tokens = {"=>", "{", "(", "async", "//"};
    d.logits.resize(5);
    d.logits << 2.5, 2.2, 1.0, 0.3, -0.5;
    return d;
}

}  // namespace logitlab::engine
