#include "engine/experiments/head_logits.h"

#include <cmath>

namespace logitlab::engine {

TopTwo topTwo(const Eigen::Ref<const Eigen::VectorXf>& logits, std::int32_t offset)
{
    TopTwo t;
    const auto n = logits.size();
    if (n == 0)
        return t;
    float best = logits[0];
    float runnerUp = -INFINITY;
    std::int32_t bestId = 0;
    std::int32_t runnerUpId = n > 1 ? 1 : 0;
    for (Eigen::Index i = 1; i < n; ++i) {
        const float v = logits[i];
        if (v > best) {
            runnerUp = best;
            runnerUpId = bestId;
            best = v;
            bestId = static_cast<std::int32_t>(i);
        } else if (v > runnerUp) {
            runnerUp = v;
            runnerUpId = static_cast<std::int32_t>(i);
        }
    }
    t.token = bestId + offset;
    t.second = runnerUpId + offset;
    t.best = best;
    t.runnerUp = n > 1 ? runnerUp : -INFINITY;
    t.gap = n > 1 ? static_cast<double>(best) - static_cast<double>(runnerUp) : INFINITY;
    return t;
}

TopTwo mergeTopTwo(const TopTwo& low, const TopTwo& high)
{
    // The sequential scan keeps the first of equal values, so a value from `high` wins only
    // when it is strictly larger.
    TopTwo t;
    if (high.best > low.best) {
        t.token = high.token;
        t.best = high.best;
        const bool lowSecond = low.best >= high.runnerUp;  // low's ids come first on a tie
        t.second = lowSecond ? low.token : high.second;
        t.runnerUp = lowSecond ? low.best : high.runnerUp;
    } else {
        t.token = low.token;
        t.best = low.best;
        const bool highSecond = high.best > low.runnerUp;
        t.second = highSecond ? high.token : low.second;
        t.runnerUp = highSecond ? high.best : low.runnerUp;
    }
    t.gap = static_cast<double>(t.best) - static_cast<double>(t.runnerUp);
    return t;
}

}  // namespace logitlab::engine
