// A sequence of next-token distributions, one per step of a reply (an imported multi-step dump,
// or the built-in model along a reply it generated). The steps are produced on demand, one at a
// time, so a long dump of a large vocabulary is never held in memory whole.
#pragma once

#include "engine/core/result.h"

#include <Eigen/Core>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace logitlab::engine {

struct StepDistributions {
    std::size_t count = 0;            // steps in the reply
    std::vector<std::string> tokens;  // optional names, one per logit (every step has the same V)
    // The logits at step `index` (0..count-1, in reply order). May fail (a bad row of a file).
    std::function<Result<Eigen::ArrayXd>(std::size_t index)> logits;
    // The source's own number for each step (the file's step index); empty: 0..count-1.
    std::vector<std::uint64_t> sourceSteps;
    // The reply's token at each step, when the source knows it (the built-in model's reply).
    std::vector<std::string> chosen;

    std::uint64_t sourceStep(std::size_t index) const { return sourceSteps.empty() ? index : sourceSteps[index]; }
};

// Steps held in memory (tests, small replies).
StepDistributions stepsFromLogits(std::vector<Eigen::ArrayXd> steps, std::vector<std::string> tokens = {});

}  // namespace logitlab::engine
