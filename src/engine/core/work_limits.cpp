#include "engine/core/work_limits.h"

#include "engine/core/input_limits.h"
#include "engine/core/number_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

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
        return static_cast<double>(vocabSize) +
               draws * (1.0 + std::log2(static_cast<double>(std::max<std::size_t>(survivors, 1))));
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

std::string readableCount(double value)
{
    if (!std::isfinite(value))
        return value > 0 ? "infinitely many" : "?";
    if (value < 1e6)
        return groupedNumber(static_cast<std::size_t>(std::llround(std::max(0.0, value))));
    // Two significant digits: "about 2.6e10", not eleven digits of false precision.
    int exponent = static_cast<int>(std::floor(std::log10(value)));
    double mantissa = std::round(value / std::pow(10.0, exponent) * 10.0) / 10.0;
    if (mantissa >= 10.0) {
        mantissa /= 10.0;
        ++exponent;
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.1fe%d", mantissa, exponent);
    return text;
}

std::string readableBytes(double bytes)
{
    char text[32];
    if (bytes >= 1024.0 * 1024 * 1024)
        std::snprintf(text, sizeof text, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
    else
        std::snprintf(text, sizeof text, "%.0f MiB", std::ceil(bytes / (1024.0 * 1024)));
    return text;
}

namespace {

std::string limitsNote() { return " (docs/reliability.md, limits)"; }

}  // namespace

std::optional<std::string> checkWork(const std::string& what, double steps, double limit, const std::string& advice,
                                     const std::string& unit)
{
    if (steps <= limit)
        return std::nullopt;
    return what + ": about " + readableCount(steps) + " " + unit + " of work, over the limit of " +
           readableCount(limit) + limitsNote() + "; " + advice;
}

std::optional<std::string> checkEstimate(const std::string& what, const WorkEstimate& e, const std::string& advice)
{
    if (e.workLimit > 0.0)
        if (auto problem = checkWork(what, e.work, e.workLimit, advice, e.unit))
            return problem;
    if (!(e.memoryBytes <= kMaxRunMemoryBytes))
        return what + ": about " + readableBytes(e.memoryBytes) + " of memory, over the limit of " +
               readableBytes(kMaxRunMemoryBytes) + limitsNote() + "; " + advice;
    if (!(e.outputRows <= kMaxOutputRows))
        return what + ": about " + readableCount(e.outputRows) + " result rows, over the limit of " +
               readableCount(kMaxOutputRows) + limitsNote() + "; " + advice;
    if (!(e.chartPoints <= kMaxChartPoints))
        return what + ": about " + readableCount(e.chartPoints) + " points in one chart, over the limit of " +
               readableCount(kMaxChartPoints) + limitsNote() + "; " + advice;
    return std::nullopt;
}

}  // namespace logitlab::engine
