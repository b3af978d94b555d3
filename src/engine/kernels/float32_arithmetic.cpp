#include "engine/kernels/float32_arithmetic.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace logitlab::engine::detail {

namespace {

constexpr float kNegInfF = -std::numeric_limits<float>::infinity();

float maxOf(const std::vector<float>& x)
{
    float m = kNegInfF;
    for (float v : x)
        m = std::max(m, v);
    return m;
}

// With nothing finite left the libraries would compute exp(-inf + inf) = NaN; LogitLab gives
// every entry an equal share, as its exact softmax does (never NaN).
std::vector<float> uniform(std::size_t n) { return std::vector<float>(n, 1.0f / static_cast<float>(n)); }

}  // namespace

void roundLogitsToFloat(CandidateArray& a)
{
    for (auto& t : a.data())
        t.logit = f32(t.logit);
}

namespace {

// expf(l - max) per entry in float, as both of llama.cpp's softmaxes compute it; empty (and p set
// to equal shares) when no logit is finite.
std::vector<float> llamaExps(CandidateArray& a)
{
    const std::vector<float> logits = logitsAsFloat(a);
    const float maxLogit = maxOf(logits);
    if (maxLogit == kNegInfF) {
        for (auto& t : a.data())
            t.p = 1.0 / static_cast<double>(a.size());
        return {};
    }
    std::vector<float> p(logits.size());
    for (std::size_t i = 0; i < p.size(); ++i)
        p[i] = std::exp(logits[i] - maxLogit);  // expf: the float overload
    return p;
}

}  // namespace

void llamaSoftmax(CandidateArray& a)
{
    const std::vector<float> p = llamaExps(a);
    float sum = 0.0f;  // a float running sum in array order
    for (float v : p)
        sum += v;
    for (std::size_t i = 0; i < p.size(); ++i)
        a[i].p = static_cast<double>(p[i] / sum);
}

void llamaDistSoftmax(CandidateArray& a)
{
    const std::vector<float> p = llamaExps(a);
    double sum = 0.0;  // the dist sampler sums in double
    for (float v : p)
        sum += v;
    for (std::size_t i = 0; i < p.size(); ++i)
        a[i].p = static_cast<double>(static_cast<float>(static_cast<double>(p[i]) / sum));
}

std::vector<float> logitsAsFloat(const CandidateArray& a)
{
    std::vector<float> out(a.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        out[i] = static_cast<float>(a[i].logit);
    return out;
}

std::vector<float> torchSoftmax(const std::vector<float>& logits)
{
    if (logits.empty())
        return {};
    const float maxLogit = maxOf(logits);
    if (maxLogit == kNegInfF)
        return uniform(logits.size());
    std::vector<float> p(logits.size());
    float sum = 0.0f;
    for (std::size_t i = 0; i < p.size(); ++i) {
        p[i] = std::exp(logits[i] - maxLogit);
        sum += p[i];
    }
    const float inverse = 1.0f / sum;  // torch multiplies by the reciprocal rather than dividing
    for (float& v : p)
        v *= inverse;
    return p;
}

std::vector<float> torchLogSoftmax(const std::vector<float>& logits)
{
    if (logits.empty())
        return {};
    const float maxLogit = maxOf(logits);
    if (maxLogit == kNegInfF)
        return std::vector<float>(logits.size(), -std::log(static_cast<float>(logits.size())));
    float sum = 0.0f;
    for (float l : logits)
        sum += std::exp(l - maxLogit);
    const float logSum = std::log(sum);
    std::vector<float> out(logits.size());
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = logits[i] - maxLogit - logSum;
    return out;
}

std::vector<float> torchCumsum(const std::vector<float>& values)
{
    std::vector<float> out(values.size());
    double total = 0.0;  // at::acc_type<float, /*is_cuda=*/false> is double
    for (std::size_t i = 0; i < values.size(); ++i) {
        total += static_cast<double>(values[i]);
        out[i] = static_cast<float>(total);
    }
    return out;
}

void torchSoftmax(CandidateArray& a)
{
    const std::vector<float> p = torchSoftmax(logitsAsFloat(a));
    for (std::size_t i = 0; i < p.size(); ++i)
        a[i].p = static_cast<double>(p[i]);
}

}  // namespace logitlab::engine::detail
