// The entropy (in nats, at T = 1) of one step's logits: what the Explorer's step list shows
// so the uncertain steps of a reply are easy to find.
#pragma once

#include <Eigen/Core>

namespace logitlab::engine {

// -sum p ln p over p = softmax(logits); -inf logits count 0 (0 ln 0 = 0).
double logitsEntropy(const Eigen::Ref<const Eigen::ArrayXd>& logits);

}  // namespace logitlab::engine
