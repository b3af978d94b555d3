#include "engine/experiments/step_entropy.h"

#include <cmath>

namespace logitlab::engine {

double logitsEntropy(const Eigen::Ref<const Eigen::ArrayXd>& logits)
{
    // With z = sum exp(x - max): H = ln z - sum exp(x - max) (x - max) / z, one pass after the max.
    const double top = logits.maxCoeff();
    double z = 0.0;
    double weighted = 0.0;
    for (Eigen::Index i = 0; i < logits.size(); ++i) {
        if (std::isinf(logits[i]))
            continue;
        const double d = logits[i] - top;
        const double e = std::exp(d);
        z += e;
        weighted += e * d;
    }
    return std::max(0.0, std::log(z) - weighted / z);
}

}  // namespace logitlab::engine
