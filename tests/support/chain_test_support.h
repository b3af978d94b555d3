// Helpers for the sampler-chain suites: candidate arrays built the way llama.cpp's and Hugging
// Face's own tests build them (logit = ln p), and chains parsed from their compact text.
#pragma once

#include "engine/sampler/candidate.h"
#include "engine/sampler/candidate_array.h"
#include "engine/sampler/chain_text.h"
#include "engine/sampler/sampler_chain.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace logitlab::test {

// Token i gets logit ln(probs[i]) and p = probs[i], in id order, unsorted (llama.cpp's tester).
inline engine::CandidateArray arrayFromProbs(const std::vector<double>& probs)
{
    engine::CandidateArray a;
    for (std::size_t i = 0; i < probs.size(); ++i)
        a.data().push_back({static_cast<std::int32_t>(i), std::log(probs[i]), probs[i]});
    return a;
}

inline engine::CandidateArray arrayFromLogits(const std::vector<double>& logits)
{
    return engine::CandidateArray::fromLogits(logits.data(), logits.size());
}

// Parses `text` under `semantics`; a parse error fails the calling test.
inline engine::SamplerChain chainOf(const std::string& text, engine::Semantics semantics)
{
    auto chain = engine::parseChain(text, semantics);
    if (!chain)
        qFatal("chain '%s' does not parse: %s", text.c_str(), chain.error().c_str());
    return std::move(chain).value();
}

// Applies the chain's active stages to the array, like llama_sampler_apply one by one.
inline engine::CandidateArray applied(const std::string& text, engine::Semantics semantics,
                                      engine::CandidateArray array, const std::vector<std::int32_t>& history = {})
{
    engine::SamplerChain chain = chainOf(text, semantics);
    engine::SamplerContext context;
    context.history = history;
    context.vocabSize = array.size();
    chain.apply(array, context);
    return array;
}

inline std::vector<double> probabilities(const engine::CandidateArray& a)
{
    std::vector<double> p;
    for (const auto& t : a.data())
        p.push_back(t.p);
    return p;
}

// The survivors' ids, sorted.
inline std::vector<int> sortedIds(const engine::CandidateList& list)
{
    std::vector<int> out;
    for (const auto& c : list)
        out.push_back(c.id);
    std::sort(out.begin(), out.end());
    return out;
}

// ln p of each probability: logits whose softmax is `probs` (llama.cpp's and HF's tests build so).
inline std::vector<double> logOf(const std::vector<double>& probs)
{
    std::vector<double> out;
    for (double p : probs)
        out.push_back(std::log(p));
    return out;
}

inline std::vector<int> ids(const engine::CandidateArray& a)
{
    std::vector<int> out;
    for (const auto& t : a.data())
        out.push_back(t.id);
    return out;
}

// The ids whose logit is not -inf, in array order: what a dense mask would leave non-zero.
inline std::vector<int> keptIds(const engine::CandidateArray& a)
{
    std::vector<int> out;
    for (const auto& t : a.data())
        if (t.logit != -INFINITY)
            out.push_back(t.id);
    return out;
}

}  // namespace logitlab::test

Q_DECLARE_METATYPE(std::vector<double>)
Q_DECLARE_METATYPE(std::vector<int>)
