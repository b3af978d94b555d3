// The lesson's two examples of order mattering in floating point, evaluated at run time in
// float64: (0.1 + 1e20) - 1e20 against 0.1 + (1e20 - 1e20), and (0.1 + 0.2) + 0.3 against
// 0.1 + (0.2 + 0.3), each with its value, its bits and one line on why.
#pragma once

#include <string>
#include <vector>

namespace logitlab::engine {

struct LessonSum {
    std::string expression;  // "(0.1 + 1e20) - 1e20"
    double value = 0.0;
    std::string shortest;     // the shortest text that reads back to the value: "0.6000000000000001"
    std::string bits;         // "0x3fe3333333333334"
    std::string explanation;  // one line
};

// The four evaluations, in the lesson's order: the two orders of each example.
std::vector<LessonSum> lessonSums();

}  // namespace logitlab::engine
