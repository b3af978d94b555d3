#include "engine/sampler/softmax.h"

#include "engine/kernels/softmax_kernel.h"

namespace logitlab::engine {

namespace {

template <class Array>
Eigen::ArrayXd softmaxOf(const Array& logits, double temperature)
{
    const auto n = static_cast<std::size_t>(logits.size());
    Eigen::ArrayXd probs(logits.size());
    const double sum = detail::exponentiate(logits.data(), n, temperature, probs.data());
    detail::normalise(probs.data(), n, sum);
    return probs;
}

}  // namespace

Eigen::ArrayXd softmax(const Eigen::Ref<const Eigen::ArrayXd>& logits, double temperature)
{
    return softmaxOf(logits, temperature);
}

Eigen::ArrayXd softmax(const Eigen::Ref<const Eigen::ArrayXf>& logits, double temperature)
{
    return softmaxOf(logits, temperature);
}

bool actsAsGreedy(const Eigen::Ref<const Eigen::ArrayXd>& logits, double temperature)
{
    return temperature == 0.0 || (logits.size() > 0 && detail::scaledMaxOverflows(logits[argmax(logits)], temperature));
}

bool actsAsGreedy(const Eigen::Ref<const Eigen::ArrayXf>& logits, double temperature)
{
    return temperature == 0.0 ||
           (logits.size() > 0 && detail::scaledMaxOverflows(static_cast<double>(logits[argmax(logits)]), temperature));
}

std::int32_t argmax(const Eigen::Ref<const Eigen::ArrayXd>& logits)
{
    return detail::argmaxOf(logits.data(), static_cast<std::size_t>(logits.size()));
}

std::int32_t argmax(const Eigen::Ref<const Eigen::ArrayXf>& logits)
{
    return detail::argmaxOf(logits.data(), static_cast<std::size_t>(logits.size()));
}

}  // namespace logitlab::engine
