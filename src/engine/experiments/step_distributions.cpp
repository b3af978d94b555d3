#include "engine/experiments/step_distributions.h"

#include <memory>

namespace logitlab::engine {

StepDistributions stepsFromLogits(std::vector<Eigen::ArrayXd> steps, std::vector<std::string> tokens)
{
    StepDistributions s;
    s.count = steps.size();
    s.tokens = std::move(tokens);
    auto held = std::make_shared<const std::vector<Eigen::ArrayXd>>(std::move(steps));
    s.logits = [held](std::size_t index) -> Result<Eigen::ArrayXd> { return (*held)[index]; };
    return s;
}

}  // namespace logitlab::engine
