#include "work_limits.h"

#include "number_format.h"

#include <algorithm>
#include <cmath>

namespace logitlab::engine {

namespace {

// Sum over draws i = 0..d-1 of min(window, h0 + i): the positions a windowed scan of a history
// of h0 + i tokens reads (window < 0: the whole history).
double windowSum(double window, double h0, double d)
{
    const double unbounded = d * h0 + d * (d - 1.0) / 2.0;
    if (window < 0.0)
        return unbounded;
    if (h0 >= window)
        return d * window;
    const double growing = std::min(d, window - h0);  // draws before the history fills the window
    return growing * h0 + growing * (growing - 1.0) / 2.0 + (d - growing) * window;
}

}  // namespace

double sampleSteps(const SamplerChain& chain, std::size_t vocabSize, std::size_t survivors, double draws,
                   std::size_t historyLength)
{
    if (!chain.stateful())
        return static_cast<double>(vocabSize) + draws * (1.0 + std::log2(static_cast<double>(std::max<std::size_t>(survivors, 1))));
    const double h0 = static_cast<double>(historyLength);
    double steps = draws * static_cast<double>(vocabSize);
    for (const SamplerStage* stage : chain.activeStages()) {
        if (stage->name() == "dry" || stage->name() == "penalties")
            steps += windowSum(stage->number("last-n"), h0, draws);
        else if (stage->name() == "no-repeat-ngram")
            steps += windowSum(-1.0, h0, draws) * std::max(1.0, stage->number("n") - 1.0);
    }
    return steps;
}

std::optional<std::string> checkWork(const std::string& what, double steps, double limit, const std::string& advice)
{
    if (steps <= limit)
        return std::nullopt;
    // Two significant digits: "about 2.6e+10", not eleven digits of false precision.
    const double unit = std::pow(10.0, std::floor(std::log10(steps)) - 1.0);
    return what + ": about " + formatDouble(std::round(steps / unit) * unit) + " steps of work, more than the limit of "
        + formatDouble(limit) + " (docs/experiments.md, work limits); " + advice;
}

}  // namespace logitlab::engine
