// An independent model of llama.cpp's float sampler chain (src/llama-sampling.cpp: top-k, top-p,
// min-p, temperature, temp-ext and dist), written from the library's rules for the tests: float
// logits and probabilities, its sort points and `sorted` flag, its sums (float in
// llama_sampler_softmax_impl, double in dist and after a dynamic temperature) and its order.
// tst_library_arithmetic runs LogitLab's `library` arithmetic against it bit for bit.
#pragma once

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <vector>

namespace logitlab::test::llama {

struct Token {
    std::int32_t id;
    float logit;
    float p;
};

struct Array {
    std::vector<Token> data;
    bool sorted = false;
};

inline void sortByLogit(Array& a)
{
    // The tests use distinct float logits, so llama.cpp's unstable sorts give this order too.
    std::stable_sort(a.data.begin(), a.data.end(), [](const Token& x, const Token& y) { return x.logit > y.logit; });
    a.sorted = true;
}

// llama_sampler_softmax_impl: the max (the first entry when sorted), expf, a float running sum
// in array order, a float divide.
inline void softmax(Array& a, bool sortFirst)
{
    if (sortFirst && !a.sorted)
        sortByLogit(a);
    float maxLogit = a.data[0].logit;
    if (!a.sorted)
        for (const Token& t : a.data)
            maxLogit = std::max(maxLogit, t.logit);
    float sum = 0.0f;
    for (Token& t : a.data) {
        t.p = std::exp(t.logit - maxLogit);
        sum += t.p;
    }
    for (Token& t : a.data)
        t.p /= sum;
}

inline void topK(Array& a, int k)
{
    if (k <= 0)
        return;
    k = std::min(k, static_cast<int>(a.data.size()));
    if (!a.sorted)
        sortByLogit(a);
    a.data.resize(static_cast<std::size_t>(k));
}

inline void topP(Array& a, float p, std::size_t minKeep)
{
    if (p >= 1.0f)
        return;
    softmax(a, false);
    if (!a.sorted)
        sortByLogit(a);
    float total = 0.0f;
    std::size_t last = a.data.size();
    for (std::size_t i = 0; i < a.data.size(); ++i) {
        total += a.data[i].p;
        if (total >= p && i + 1 >= minKeep) {
            last = i + 1;
            break;
        }
    }
    a.data.resize(last);
}

inline void minP(Array& a, float p, std::size_t minKeep)
{
    if (p <= 0.0f || a.data.empty())
        return;
    if (!a.sorted) {
        float maxLogit = -FLT_MAX;
        for (const Token& t : a.data)
            maxLogit = std::max(maxLogit, t.logit);
        const float cut = maxLogit + std::log(p);
        std::vector<Token> kept;
        for (const Token& t : a.data)
            if (t.logit >= cut)
                kept.push_back(t);
        if (!kept.empty() && kept.size() >= minKeep) {
            a.data = kept;
            return;
        }
        sortByLogit(a);
    }
    const float cut = a.data[0].logit + std::log(p);
    std::size_t i = 1;
    for (; i < a.data.size(); ++i)
        if (a.data[i].logit < cut && i >= minKeep)
            break;
    a.data.resize(i);
}

inline void temperature(Array& a, float t)
{
    if (t <= 0.0f) {
        std::size_t best = 0;
        for (std::size_t i = 1; i < a.data.size(); ++i) {
            if (a.data[i].logit > a.data[best].logit) {
                a.data[best].logit = -INFINITY;
                best = i;
            } else {
                a.data[i].logit = -INFINITY;
            }
        }
        return;
    }
    for (Token& t2 : a.data)
        t2.logit /= t;
}

// llama_sampler_temp_ext_apply.
inline void temperatureExt(Array& a, float t, float delta, float exponent)
{
    if (!(delta > 0.0f)) {
        temperature(a, t);
        return;
    }
    const float low = std::max(0.0f, t - delta);
    const float high = t + delta;
    if (a.data.size() <= 1)
        return;
    const float maxEntropy = -std::log(1.0f / static_cast<float>(a.data.size()));
    softmax(a, true);
    float entropy = 0.0f;
    for (const Token& tk : a.data)
        if (tk.p > 0.0f)
            entropy -= tk.p * std::log(tk.p);
    const float normalised = entropy / maxEntropy;
    const float dynamic = low + (high - low) * std::pow(normalised, exponent);
    temperature(a, dynamic);
    const double maxLogit = a.data[0].logit;
    double sum = 0.0;
    for (Token& tk : a.data) {
        const double e = std::exp(static_cast<double>(tk.logit) - maxLogit);
        tk.p = static_cast<float>(e);
        sum += e;
    }
    for (Token& tk : a.data)
        tk.p = static_cast<float>(static_cast<double>(tk.p) / sum);
}

// The dist sampler's probabilities: expf from the max, a double sum, p / sum rounded to float.
inline void dist(Array& a)
{
    if (a.data.size() == 1) {
        a.data[0].p = 1.0f;
        return;
    }
    float maxLogit = a.data[0].logit;
    if (!a.sorted)
        for (const Token& t : a.data)
            maxLogit = std::max(maxLogit, t.logit);
    double sum = 0.0;
    for (Token& t : a.data) {
        t.p = std::exp(t.logit - maxLogit);
        sum += t.p;
    }
    for (Token& t : a.data)
        t.p = static_cast<float>(static_cast<double>(t.p) / sum);
}

}  // namespace logitlab::test::llama
