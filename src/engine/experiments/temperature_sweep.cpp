#include "engine/experiments/temperature_sweep.h"

#include "engine/sampler/candidates_from_order.h"
#include "engine/sampler/softmax.h"

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
                                         const std::vector<std::int32_t>& tracked, const std::function<bool()>& stop)
{
    std::vector<SweepPoint> points;
    points.reserve(temperatures.size());
    // One sort for the whole sweep: the order by logit is the order by probability at every T.
    const std::vector<std::int32_t> order = idsByDescendingLogit(logits);
    std::vector<double> probs;
    for (double t : temperatures) {
        if (stop && stop())
            break;
        SamplerSettings s = base;
        s.temperature = t;
        SweepPoint point;
        point.temperature = t;
        const Eigen::ArrayXd p = softmax(logits, t);
        probs.assign(p.data(), p.data() + p.size());
        point.survivors = candidatesFromOrder(probs, order, s).size();
        for (std::int32_t id : tracked)
            point.tracked.push_back(p[id]);
        points.push_back(std::move(point));
    }
    return points;
}

}  // namespace logitlab::engine
