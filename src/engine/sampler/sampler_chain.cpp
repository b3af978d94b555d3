#include "engine/sampler/sampler_chain.h"

#include "engine/kernels/float32_arithmetic.h"
#include "engine/sampler/draw.h"
#include "engine/stages/stage_support.h"
#include "engine/stages/top_k_stage.h"

#include <algorithm>
#include <set>
#include <type_traits>

namespace logitlab::engine {

SamplerChain::SamplerChain(const SamplerChain& other) : SamplerStage(other.semantics()) { *this = other; }

SamplerChain& SamplerChain::operator=(const SamplerChain& other)
{
    if (this != &other) {
        SamplerStage::operator=(other);
        m_stages.clear();
        for (const auto& s : other.m_stages)
            m_stages.push_back(s->clone());
    }
    return *this;
}

std::size_t SamplerChain::heldHistoryTokens() const
{
    std::size_t held = 0;
    for (const auto& s : m_stages)
        held += s->heldHistoryTokens();
    return held;
}

std::vector<const SamplerStage*> SamplerChain::activeStages() const
{
    std::vector<const SamplerStage*> out;
    for (const auto& s : m_stages)
        if (s->active())
            out.push_back(s.get());
    return out;
}

bool SamplerChain::stateful() const
{
    static const std::set<std::string> kStateful{"penalties",   "dry",  "no-repeat-ngram", "xtc", "mirostat-v1",
                                                 "mirostat-v2", "chain"};
    return std::any_of(m_stages.begin(), m_stages.end(), [](const auto& s) {
        return s->active() && kStateful.count(s->name()) &&
               (s->name() != "chain" || static_cast<const SamplerChain&>(*s).stateful());
    });
}

std::optional<std::string> SamplerChain::validate() const
{
    for (const auto& s : m_stages)
        if (auto problem = s->validate())
            return problem;
    return std::nullopt;
}

void SamplerChain::apply(CandidateArray& candidates, SamplerContext& context)
{
    for (const auto& s : m_stages)
        if (s->active())
            s->apply(candidates, context);
}

void SamplerChain::accept(const CandidateArray& final, std::size_t index, SamplerContext& context)
{
    for (const auto& s : m_stages)
        if (s->active())
            s->accept(final, index, context);
}

void SamplerChain::reset()
{
    for (const auto& s : m_stages)
        s->reset();
}

void SamplerChain::setRng(const Rng& prototype)
{
    for (const auto& s : m_stages)
        s->setRng(prototype);
}

void SamplerChain::setArithmetic(Arithmetic arithmetic)
{
    SamplerStage::setArithmetic(arithmetic);
    for (const auto& s : m_stages)
        s->setArithmetic(arithmetic);
}

template <class Scalar>
CandidateArray SamplerChain::runOn(const Scalar* logits, std::size_t n, SamplerContext& context)
{
    if constexpr (std::is_same_v<Scalar, double>) {
        if (libraryArithmetic()) {
            // The libraries hold logits in float32: round them once, before any stage (a top-k
            // straight from the logits included) compares them.
            const std::vector<float> rounded(logits, logits + n);
            return runOn(rounded.data(), n, context);
        }
    }
    context.vocabSize = n;
    context.temperatureScale = 1.0;
    context.adjustedLogits.clear();
    CandidateArray candidates;
    std::size_t first = 0;
    while (first < m_stages.size() && !m_stages[first]->active())
        ++first;
    const auto* topK = first < m_stages.size() ? dynamic_cast<const TopKStage*>(m_stages[first].get()) : nullptr;
    if (topK && topK->canSelectFromLogits(n) && !context.cutNotes) {  // notes need every token
        candidates = topK->selectFromLogits(logits, n);
        ++first;
    } else {
        candidates = CandidateArray::fromLogits(logits, n);
    }
    // The lesson computes exp with JavaScript's Math.exp; its probabilities carry those bits.
    candidates.setJavaScriptExp(semantics() == Semantics::Lesson);
    for (std::size_t i = first; i < m_stages.size(); ++i)
        if (m_stages[i]->active())
            m_stages[i]->apply(candidates, context);
    finish(candidates);
    return candidates;
}

void SamplerChain::finish(CandidateArray& candidates) const
{
    // llama.cpp keeps masked tokens in the array; so does the lesson, which lists them with p = 0.
    const bool keepMasked = semantics() == Semantics::LlamaCpp || semantics() == Semantics::Lesson;
    if (!keepMasked && candidates.finiteCount() > 0)
        candidates.dropMasked();
    if (!libraryArithmetic())
        candidates.softmax();
    else if (semantics() == Semantics::LlamaCpp)
        detail::llamaDistSoftmax(candidates);  // the dist sampler's softmax: expf, a double sum
    else
        detail::torchSoftmax(candidates);  // softmax(logits, dtype=float32) before the draw
    if (semantics() == Semantics::Lesson) {
        auto& data = candidates.data();
        std::stable_sort(data.begin(), data.end(), [](const TokenData& a, const TokenData& b) { return a.p > b.p; });
    }
}

CandidateArray SamplerChain::run(const float* logits, std::size_t n, SamplerContext& context)
{
    return runOn(logits, n, context);
}

CandidateArray SamplerChain::run(const double* logits, std::size_t n, SamplerContext& context)
{
    return runOn(logits, n, context);
}

std::int32_t SamplerChain::drawAndAccept(const CandidateArray& final, Rng& rng, SamplerContext& context)
{
    const std::size_t index = drawIndex(final, semantics(), rng);
    accept(final, index, context);
    context.history.push_back(final[index].id);
    return final[index].id;
}

}  // namespace logitlab::engine
