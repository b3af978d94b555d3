#include "engine/stats/wilson_interval.h"

#include <algorithm>
#include <cmath>

namespace logitlab::engine {

Interval wilsonInterval(std::uint64_t successes, std::uint64_t trials, double z)
{
    if (trials == 0)
        return {};
    const double n = static_cast<double>(trials);
    const double p = static_cast<double>(successes) / n;
    const double z2 = z * z;
    const double centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    const double half = z / (1.0 + z2 / n) * std::sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n));
    // At 0 or all successes the bound is exactly 0 or 1; rounding must not move it.
    const double low = successes == 0 ? 0.0 : std::max(0.0, centre - half);
    const double high = successes == trials ? 1.0 : std::min(1.0, centre + half);
    return {low, high};
}

}  // namespace logitlab::engine
