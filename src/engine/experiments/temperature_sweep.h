// The lesson's interaction between temperature and top-p, as data: for a range of temperatures,
// the probability of chosen tokens and how many tokens survive the other filters.
#pragma once

#include "engine/sampler/sampler_settings.h"

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <vector>

namespace logitlab::engine {

struct SweepPoint {
    double temperature = 1.0;
    std::size_t survivors = 0;
    std::vector<double> tracked;  // probability at this T of each tracked id, in the order given
};

// Temperatures i / 20 for i = 1 .. 20 * maxTemperature: the lesson's 0.5, 1 and 1.5 are exact.
std::vector<double> sweepTemperatures(double maxTemperature = 3.0);

// `base` supplies top-k and top-p; its temperature is replaced by each of `temperatures` (all
// > 0). `stop` is polled between temperatures; when it says so, the points so far are returned.
// Preconditions: validateLogits(logits), validateSettings(base), tracked ids in range.
std::vector<SweepPoint> temperatureSweep(const Eigen::Ref<const Eigen::ArrayXd>& logits, const SamplerSettings& base,
                                         const std::vector<double>& temperatures,
                                         const std::vector<std::int32_t>& tracked,
                                         const std::function<bool()>& stop = {});

}  // namespace logitlab::engine
