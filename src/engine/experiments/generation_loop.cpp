#include "engine/experiments/generation_loop.h"

#include "engine/models/model_logits_source.h"
#include "engine/models/word_tokens.h"
#include "engine/sampler/draw.h"
#include "engine/stages/mirostat_v1_stage.h"
#include "engine/stages/mirostat_v2_stage.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace logitlab::engine {

GenerationLoop::GenerationLoop(std::shared_ptr<const NgramModel> model, SamplerChain chain, std::unique_ptr<Rng> rng,
                               std::vector<std::int32_t> prompt)
    : GenerationLoop(std::make_shared<const ModelLogitsSource>(model), std::move(chain), std::move(rng),
                     std::move(prompt))
{
    m_model = std::move(model);
}

GenerationLoop::GenerationLoop(std::shared_ptr<const StepLogitsSource> source, SamplerChain chain,
                               std::unique_ptr<Rng> rng, std::vector<std::int32_t> prompt)
    : m_source(std::move(source)), m_chain(std::move(chain)), m_rng(std::move(rng)), m_prompt(std::move(prompt)),
      m_context(m_prompt)
{
    const std::size_t n = m_source->vocabSize();
    const auto v = static_cast<std::int32_t>(n);
    for (std::int32_t id : m_prompt)
        if (id >= 0 && id < v)
            m_samplerContext.history.push_back(id);
    m_promptHistory = m_samplerContext.history.size();
    m_samplerContext.vocabSize = n;
    m_logits.resize(n);
    m_finalP.assign(n, 0.0);
    m_modelP.assign(n, 0.0);
}

GenerationLoop::GenerationLoop(const GenerationLoop& other)
    : m_source(other.m_source), m_model(other.m_model), m_chain(other.m_chain), m_rng(other.m_rng->clone()),
      m_prompt(other.m_prompt), m_context(other.m_context), m_samplerContext(other.m_samplerContext),
      m_promptHistory(other.m_promptHistory), m_steps(other.m_steps), m_picks(other.m_picks), m_logits(other.m_logits),
      m_finalP(other.m_finalP), m_modelP(other.m_modelP)
{
    for (const Snapshot& s : other.m_snapshots)
        m_snapshots.push_back({s.chain, s.rng->clone()});
}

GenerationLoop::GenerationLoop(const GenerationLoop& other, std::size_t count)
    // The state before step `count` is its snapshot; after the last step it is the live one.
    : m_source(other.m_source), m_model(other.m_model),
      m_chain(count < other.m_steps.size() ? other.m_snapshots[count].chain : other.m_chain),
      m_rng(count < other.m_steps.size() ? other.m_snapshots[count].rng->clone() : other.m_rng->clone()),
      m_prompt(other.m_prompt), m_samplerContext(other.m_samplerContext), m_promptHistory(other.m_promptHistory),
      m_logits(other.m_logits), m_finalP(other.m_finalP), m_modelP(other.m_modelP)
{
    count = std::min(count, other.m_steps.size());
    const auto kept = static_cast<std::ptrdiff_t>(count);
    m_context.assign(other.m_context.begin(),
                     other.m_context.begin() + static_cast<std::ptrdiff_t>(m_prompt.size()) + kept);
    m_samplerContext.history.resize(m_promptHistory + count);
    m_steps.assign(other.m_steps.begin(), other.m_steps.begin() + kept);
    m_picks.assign(other.m_picks.begin(), other.m_picks.begin() + kept);
    m_snapshots.reserve(count);
    for (std::size_t i = 0; i < count; ++i)
        m_snapshots.push_back({other.m_snapshots[i].chain, other.m_snapshots[i].rng->clone()});
}

std::size_t GenerationLoop::heldHistoryTokens() const
{
    std::size_t held = m_chain.heldHistoryTokens();
    for (const Snapshot& s : m_snapshots)
        held += s.chain.heldHistoryTokens();
    return held;
}

double GenerationLoop::mirostatMu() const
{
    for (const SamplerStage* stage : m_chain.activeStages()) {
        if (const auto* v1 = dynamic_cast<const MirostatV1Stage*>(stage))
            return v1->mu();
        if (const auto* v2 = dynamic_cast<const MirostatV2Stage*>(stage))
            return v2->mu();
    }
    return std::numeric_limits<double>::quiet_NaN();
}

void GenerationLoop::acceptToken(const CandidateArray& final, std::int32_t token)
{
    // A token the chain cut only joins the history (mirostat's mu moves only by a kept token's surprise).
    const auto kept =
        std::find_if(final.data().begin(), final.data().end(), [token](const TokenData& t) { return t.id == token; });
    if (kept != final.data().end() && kept->p > 0.0)
        m_chain.accept(final, static_cast<std::size_t>(kept - final.data().begin()), m_samplerContext);
    m_samplerContext.history.push_back(token);
}

std::int64_t GenerationLoop::rankOf(std::int32_t token) const
{
    std::int64_t above = 0;
    const double chosen = m_logits[static_cast<std::size_t>(token)];
    for (std::size_t id = 0; id < m_logits.size(); ++id)
        if (m_logits[id] > chosen || (m_logits[id] == chosen && static_cast<std::int32_t>(id) < token))
            ++above;
    return above + 1;
}

std::optional<std::size_t> GenerationLoop::stepLimit() const
{
    std::optional<std::size_t> steps = m_source->stepCount();
    if (const auto limit = m_source->contextLimit()) {
        const std::size_t room = *limit > m_prompt.size() ? *limit - m_prompt.size() : 0;
        steps = steps ? std::min(*steps, room) : room;
    }
    return steps;
}

bool GenerationLoop::atEnd() const
{
    const auto limit = stepLimit();
    return limit && m_steps.size() >= *limit;
}

const LoopStep& GenerationLoop::step(std::optional<std::int32_t> forced)
{
    m_snapshots.push_back({m_chain, m_rng->clone()});
    const std::size_t n = m_source->vocabSize();
    const std::size_t index = m_steps.size();
    m_source->logits(index, m_context, m_logits.data());

    LoopStep record;
    record.index = index;
    record.mu = mirostatMu();
    const CandidateArray final = m_chain.run(m_logits.data(), n, m_samplerContext);

    // The most likely tokens by logit, ties by id (a partial sort of the ids).
    std::vector<std::int32_t> ids(n);
    for (std::size_t id = 0; id < n; ++id)
        ids[id] = static_cast<std::int32_t>(id);
    const std::size_t k = std::min(kTopTokens, n);
    std::partial_sort(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(k), ids.end(),
                      [this](std::int32_t a, std::int32_t b) {
                          const double la = m_logits[static_cast<std::size_t>(a)];
                          const double lb = m_logits[static_cast<std::size_t>(b)];
                          return la > lb || (la == lb && a < b);
                      });
    const std::int32_t argmax = ids.front();

    std::int32_t token = 0;
    std::int32_t historyToken = 0;
    if (m_source->teacherForced()) {
        // The pick is recorded; the model's own token goes on (teacher forcing).
        token = forced ? *forced : final[drawIndex(final, m_chain.semantics(), *m_rng)].id;
        record.forced = forced.has_value();
        const auto actual = m_source->actualToken(index);
        record.actualKnown = actual.has_value();
        historyToken = actual.value_or(argmax);
        acceptToken(final, historyToken);
    } else if (forced) {
        token = *forced;
        record.forced = true;
        historyToken = token;
        acceptToken(final, token);
    } else {
        token = m_chain.drawAndAccept(final, *m_rng, m_samplerContext);
        historyToken = token;
    }
    record.token = token;

    double survivorsModelMass = 0.0;
    double maxLogit = -std::numeric_limits<double>::infinity();
    for (double l : m_logits)
        maxLogit = std::max(maxLogit, l);
    double sum = 0.0;
    for (std::size_t id = 0; id < n; ++id) {
        m_modelP[id] = std::exp(m_logits[id] - maxLogit);
        sum += m_modelP[id];
    }
    for (double& p : m_modelP)
        p /= sum;
    for (const TokenData& t : final.data()) {
        if (t.p > 0.0) {
            ++record.survivors;
            survivorsModelMass += m_modelP[static_cast<std::size_t>(t.id)];
            m_finalP[static_cast<std::size_t>(t.id)] = t.p;
        }
    }
    record.cutMass = std::max(0.0, 1.0 - survivorsModelMass);
    record.probability = m_finalP[static_cast<std::size_t>(token)];
    record.modelProbability = m_modelP[static_cast<std::size_t>(token)];
    record.rank = rankOf(token);
    if (m_source->teacherForced()) {
        const auto actual = static_cast<std::size_t>(historyToken);
        record.actual = historyToken;
        record.actualProbability = m_finalP[actual];
        record.actualModelProbability = m_modelP[actual];
        record.actualRank = rankOf(historyToken);
        record.actualCut = m_finalP[actual] <= 0.0;
    }

    double entropy = 0.0;
    for (std::size_t id = 0; id < n; ++id) {
        const double p = m_modelP[id];
        if (p > 0.0)
            entropy -= p * std::log2(p);
    }
    record.entropyBits = entropy;
    record.topLogitGap = k >= 2
                             ? m_logits[static_cast<std::size_t>(ids[0])] - m_logits[static_cast<std::size_t>(ids[1])]
                             : std::numeric_limits<double>::infinity();

    for (std::size_t i = 0; i < k; ++i) {
        const auto id = static_cast<std::size_t>(ids[i]);
        record.top.push_back({ids[i], m_modelP[id], m_finalP[id]});
    }
    for (const TokenData& t : final.data())
        m_finalP[static_cast<std::size_t>(t.id)] = 0.0;

    m_context.push_back(historyToken);
    m_picks.push_back(token);
    m_steps.push_back(std::move(record));
    return m_steps.back();
}

void GenerationLoop::rewind(std::size_t count)
{
    if (count >= m_steps.size())
        return;
    Snapshot& s = m_snapshots[count];
    m_chain = std::move(s.chain);
    m_rng = std::move(s.rng);
    m_snapshots.erase(m_snapshots.begin() + static_cast<std::ptrdiff_t>(count), m_snapshots.end());
    m_steps.resize(count);
    m_context.resize(m_prompt.size() + count);
    m_picks.resize(count);
    m_samplerContext.history.resize(m_promptHistory + count);
}

void GenerationLoop::reseed(std::unique_ptr<Rng> rng) { m_rng = std::move(rng); }

std::vector<std::int32_t> GenerationLoop::tokens() const { return m_picks; }

std::vector<std::int32_t> GenerationLoop::history() const
{
    return {m_context.begin() + static_cast<std::ptrdiff_t>(m_prompt.size()), m_context.end()};
}

std::string GenerationLoop::text() const
{
    if (auto decoded = m_source->decodeText(tokens()))
        return *std::move(decoded);
    std::vector<std::string> words;
    for (std::int32_t id : tokens())
        words.push_back(vocabulary()[static_cast<std::size_t>(id)]);
    return joinWordTokens(words);
}

std::optional<Divergence> firstDivergence(const std::vector<LoopStep>& a, const std::vector<LoopStep>& b)
{
    const std::size_t n = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i)
        if (a[i].token != b[i].token)
            return Divergence{i, a[i].modelProbability, b[i].modelProbability};
    return std::nullopt;
}

}  // namespace logitlab::engine

namespace logitlab::engine {

bool isGreedyNearTie(const LoopStep& step) { return step.survivors == 1 && step.topLogitGap <= kNearTieLogitGap; }

ReplayAgreement replayAgreement(const std::vector<LoopStep>& steps)
{
    ReplayAgreement a;
    for (const LoopStep& s : steps) {
        if (!s.actualKnown)
            continue;
        ++a.known;
        a.matches += s.matches() ? 1 : 0;
        a.cut += s.actualCut ? 1 : 0;
    }
    return a;
}

}  // namespace logitlab::engine
