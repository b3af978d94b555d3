#include "engine/sampler/explorer_draws.h"

#include "engine/rng/rng_factory.h"
#include "engine/rng/seed_split.h"
#include "engine/sampler/array_draw.h"
#include "engine/sampler/candidates.h"
#include "engine/sampler/cumulative_walk.h"

#include <algorithm>
#include <optional>

namespace logitlab::engine {

namespace {

constexpr std::uint64_t kStopEvery = 4096;

bool stopped(std::uint64_t i, const std::function<bool()>& stop)
{
    return i > 0 && i % kStopEvery == 0 && stop && stop();
}

// The chain's finished array for one XTC outcome (probability forced to 0 or 1).
Result<CandidateArray> finalArray(const Eigen::Ref<const Eigen::ArrayXd>& logits, const ExplorerChain& chain,
                                  std::optional<double> xtcProbability)
{
    ChainSettings settings = toChainSettings(chain);
    if (xtcProbability)
        settings.xtcProbability = *xtcProbability;
    auto built = buildChain(settings, chain.semantics);
    if (!built)
        return Error{built.error()};
    SamplerContext context;
    context.vocabSize = static_cast<std::size_t>(logits.size());
    context.history = chain.context;
    return built.value().run(logits.data(), static_cast<std::size_t>(logits.size()), context);
}

bool sameArrays(const CandidateArray& a, const CandidateArray& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].id != b[i].id || a[i].p != b[i].p)
            return false;
    return true;
}

// Expected chance per token: weight * p in each array, most probable first, ties by id. Dense
// by id: a map of 262,144 entries cost more than the draws.
CandidateList mixture(const std::vector<std::pair<const CandidateArray*, double>>& parts, std::size_t vocabulary)
{
    std::vector<double> p(vocabulary, 0.0);
    for (const auto& [array, weight] : parts)
        for (const TokenData& t : array->data())
            if (t.p > 0.0)
                p[static_cast<std::size_t>(t.id)] += weight * t.p;
    CandidateList list;
    for (std::size_t id = 0; id < vocabulary; ++id)
        if (p[id] > 0.0)
            list.push_back(Candidate{static_cast<std::int32_t>(id), p[id], p[id]});
    std::stable_sort(list.begin(), list.end(), [](const Candidate& a, const Candidate& b) { return a.p > b.p; });
    return list;
}

// Counts a draw of token `id` at its position in `expected`; a token the mixture gave no chance
// (a masked token picked by a zero uniform) is added with p = 0 rather than lost.
void count(ExplorerDraws& out, std::vector<std::int64_t>& position, std::int32_t id)
{
    auto& at = position[static_cast<std::size_t>(id)];
    if (at < 0) {
        at = static_cast<std::int64_t>(out.expected.size());
        out.expected.push_back(Candidate{id, 0.0, 0.0});
        out.counts.counts.push_back(0);
    }
    ++out.counts.counts[static_cast<std::size_t>(at)];
    ++out.counts.draws;
}

}  // namespace

Result<ExplorerDraws> explorerDraws(const Eigen::Ref<const Eigen::ArrayXd>& logits, const ExplorerChain& chain,
                                    std::uint64_t n, const std::string& rngName, std::uint64_t seed,
                                    const std::function<bool()>& stop)
{
    if (auto problem = validateExplorerChain(chain, static_cast<std::size_t>(logits.size())))
        return Error{*problem};
    auto rng = makeRng(rngName, seed);
    if (!rng)
        return Error{rng.error()};
    Rng& draws = *rng.value();

    ExplorerDraws out;
    if (chain.lessonOnly()) {
        // The lesson's sample(): one uniform per draw, walked down candidates() (exactly, faster).
        CumulativeWalk walk(candidates(logits, chain.lesson));
        out.expected = walk.list();
        out.counts.counts.assign(out.expected.size(), 0);
        for (std::uint64_t i = 0; i < n && !stopped(i, stop); ++i) {
            const std::size_t at = walk.indexAt(draws.nextDouble());
            ++out.counts.counts[at];
            ++out.counts.draws;
            if (i < ExplorerDraws::kFirstDraws)
                out.first.push_back(out.expected[at].id);
        }
        return out;
    }

    auto fires = finalArray(logits, chain, chain.xtcAtRandom() ? std::optional<double>(1.0) : std::nullopt);
    if (!fires)
        return Error{fires.error()};
    std::optional<CandidateArray> quiet;
    double p = 1.0;  // chance that the step runs as `fires`
    if (chain.xtcAtRandom()) {
        auto q = finalArray(logits, chain, 0.0);
        if (!q)
            return Error{q.error()};
        if (!sameArrays(*fires, *q)) {  // equal when XTC had fewer than 2 candidates: no coin then
            quiet = std::move(q).value();
            p = *chain.stages.xtcProbability;
        }
    }
    const auto vocabulary = static_cast<std::size_t>(logits.size());
    out.expected =
        quiet ? mixture({{&*fires, p}, {&*quiet, 1.0 - p}}, vocabulary) : mixture({{&*fires, 1.0}}, vocabulary);
    out.counts.counts.assign(out.expected.size(), 0);
    std::vector<std::int64_t> position(vocabulary, -1);  // in `expected`, by id
    for (std::size_t i = 0; i < out.expected.size(); ++i)
        position[static_cast<std::size_t>(out.expected[i].id)] = static_cast<std::int64_t>(i);

    const ArrayDraw whenFires(std::move(fires).value(), chain.semantics);
    std::optional<ArrayDraw> whenQuiet;
    std::unique_ptr<Rng> coin;
    if (quiet) {
        whenQuiet.emplace(std::move(*quiet), chain.semantics);
        coin = makeRng(rngName, randomStageSeed(seed)).value();
    }
    for (std::uint64_t i = 0; i < n && !stopped(i, stop); ++i) {
        // XtcStage::apply: the step is left alone when the coin comes up above the probability.
        const ArrayDraw& from = coin && coin->nextDouble() > p ? *whenQuiet : whenFires;
        const std::int32_t id = from.array()[from.draw(draws)].id;
        count(out, position, id);
        if (i < ExplorerDraws::kFirstDraws)
            out.first.push_back(id);
    }
    return out;
}

}  // namespace logitlab::engine
