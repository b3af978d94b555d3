#include "temperature_sweep.h"

#include "candidates.h"
#include "softmax.h"

#include <cmath>

namespace logitlab::engine {

std::vector<double> sweepTemperatures(double maxTemperature)
{
    std::vector<double> t;
    const int steps = static_cast<int>(std::lround(maxTemperature * 20.0));
    for (int i = 1; i <= steps; ++i)
        t.push_back(i / 20.0);
    return t;
}

std::vector<SweepPoint> temperatureSweep(const Eigen::Ref<const Eigen::ArrayXd>& logits, const SamplerSettings& base,
                                         const std::vector<double>& temperatures,
                                         const std::vector<std::int32_t>& tracked,
                                         const std::function<bool()>& stop)
{
    std::vector<SweepPoint> points;
    points.reserve(temperatures.size());
    for (double t : temperatures) {
        if (stop && stop())
            break;
        SamplerSettings s = base;
        s.temperature = t;
        SweepPoint point;
        point.temperature = t;
        point.survivors = candidates(logits, s).size();
        const Eigen::ArrayXd p = softmax(logits, t);
        for (std::int32_t id : tracked)
            point.tracked.push_back(p[id]);
        points.push_back(std::move(point));
    }
    return points;
}

}  // namespace logitlab::engine
