#include "engine/experiments/summation_lesson.h"

#include "engine/core/number_format.h"
#include "engine/kernels/float_formats.h"

namespace logitlab::engine {

namespace {

// One IEEE double addition, in the order the caller nests them (a compiler folding constants
// must round the same way, so the values do not depend on where they are computed).
double add(double a, double b) { return a + b; }

LessonSum entry(std::string expression, double value, std::string explanation)
{
    return {std::move(expression), value, formatDouble(value), hexBits(FloatFormat::Float64, value),
            std::move(explanation)};
}

}  // namespace

std::vector<LessonSum> lessonSums()
{
    const double a = 0.1, b = 1e20, c = -1e20;
    const double x = 0.1, y = 0.2, z = 0.3;
    return {
        entry("(0.1 + 1e20) - 1e20", add(add(a, b), c),
              "an ULP at 1e20 is 16384: 0.1 is far below half of it, so 0.1 + 1e20 rounds to 1e20 and the 0.1 is lost"),
        entry("0.1 + (1e20 - 1e20)", add(a, add(b, c)), "1e20 - 1e20 is exactly 0, and 0.1 + 0 keeps every bit of 0.1"),
        entry("(0.1 + 0.2) + 0.3", add(add(x, y), z),
              "0.1 + 0.2 rounds up to 0.30000000000000004; adding 0.3 rounds up again, one ULP above 0.6"),
        entry("0.1 + (0.2 + 0.3)", add(x, add(y, z)),
              "0.2 + 0.3 is exactly 0.5 (the roundings cancel); 0.1 + 0.5 rounds to the double nearest 0.6"),
    };
}

}  // namespace logitlab::engine
