#include "engine/sampler/candidate_array.h"

#include "engine/kernels/fdlibm_exp.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace logitlab::engine {

namespace {

template <class Scalar>
CandidateArray build(const Scalar* logits, std::size_t n)
{
    CandidateArray array;
    auto& data = array.data();
    data.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        data[i] = TokenData{static_cast<std::int32_t>(i), static_cast<double>(logits[i]), 0.0};
    return array;
}

}  // namespace

CandidateArray CandidateArray::fromLogits(const double* logits, std::size_t n) { return build(logits, n); }

CandidateArray CandidateArray::fromLogits(const float* logits, std::size_t n) { return build(logits, n); }

void CandidateArray::softmax()
{
    if (m_data.empty())
        return;
    const double maxLogit = m_data[argmax()].logit;
    if (maxLogit == -std::numeric_limits<double>::infinity()) {
        // exp(-inf - -inf) is NaN; with nothing finite left, no token is preferred over another.
        for (auto& t : m_data)
            t.p = 1.0 / static_cast<double>(m_data.size());
        return;
    }
    double sum = 0.0;
    for (auto& t : m_data) {
        t.p = m_javaScriptExp ? fdlibmExp(t.logit - maxLogit) : std::exp(t.logit - maxLogit);
        sum += t.p;
    }
    for (auto& t : m_data)
        t.p /= sum;
}

void CandidateArray::sortDescending()
{
    if (!m_sorted)
        std::stable_sort(m_data.begin(), m_data.end(),
                         [](const TokenData& a, const TokenData& b) { return a.logit > b.logit; });
    m_sorted = true;
}

void CandidateArray::truncate(std::size_t n)
{
    if (n < m_data.size())
        m_data.resize(n);
}

void CandidateArray::dropMasked()
{
    std::erase_if(m_data, [](const TokenData& t) { return t.logit == -std::numeric_limits<double>::infinity(); });
}

std::size_t CandidateArray::argmax() const
{
    std::size_t best = 0;
    for (std::size_t i = 1; i < m_data.size(); ++i)
        if (m_data[i].logit > m_data[best].logit)
            best = i;
    return best;
}

std::size_t CandidateArray::finiteCount() const
{
    return static_cast<std::size_t>(std::count_if(m_data.begin(), m_data.end(), [](const TokenData& t) {
        return t.logit != -std::numeric_limits<double>::infinity();
    }));
}

}  // namespace logitlab::engine
