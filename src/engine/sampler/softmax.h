// Softmax at a temperature and greedy argmax, computed the way the lesson's JavaScript does:
// divide by T, subtract the max, exp, sum left to right in id order, divide. Same operations in
// the same order on doubles give the same bits, which seeded draws depend on.
#pragma once

#include <Eigen/Core>
#include <cstdint>

namespace logitlab::engine {

// Precondition: temperature > 0 and at least one finite logit (see validateLogits).
Eigen::ArrayXd softmax(const Eigen::Ref<const Eigen::ArrayXd>& logits, double temperature);
Eigen::ArrayXd softmax(const Eigen::Ref<const Eigen::ArrayXf>& logits, double temperature);

// True when `temperature` acts as greedy on these logits: T = 0, or T > 0 so small that
// max(l) / T overflows a double (its T -> 0 limit; docs/engine.md).
bool actsAsGreedy(const Eigen::Ref<const Eigen::ArrayXd>& logits, double temperature);
bool actsAsGreedy(const Eigen::Ref<const Eigen::ArrayXf>& logits, double temperature);

// Index of the largest logit; the lowest id wins ties (JavaScript's indexOf(Math.max(...))).
std::int32_t argmax(const Eigen::Ref<const Eigen::ArrayXd>& logits);
std::int32_t argmax(const Eigen::Ref<const Eigen::ArrayXf>& logits);

}  // namespace logitlab::engine
