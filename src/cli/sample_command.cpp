#include "cli/sample_command.h"

#include "engine/rng/seed_split.h"

#include "app/text/chain_json.h"
#include "app/text/one_line_text.h"
#include "cli/candidates_command.h"
#include "cli/chain_options.h"
#include "cli/sampler_options.h"
#include "engine/core/work_limits.h"
#include "engine/rng/rng_factory.h"
#include "engine/sampler/array_draw.h"
#include "engine/sampler/candidates.h"
#include "engine/sampler/chain_evaluation.h"
#include "engine/sampler/chain_text.h"
#include "engine/sampler/cumulative_walk.h"
#include "engine/sampler/draw.h"
#include "engine/sampler/sample.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <unordered_map>

namespace logitlab::cli {

namespace {

// Upper bounds that keep a typo from running for hours or filling memory.
constexpr qint64 kMaxDraws = 10'000'000'000;
constexpr qint64 kMaxSequence = 10'000'000;

// Returns the function that makes one draw. The lesson's own chain keeps the lesson's path
// (candidates() once, then its walk); a stateless chain runs once; a stateful one (penalties,
// DRY, n-grams, XTC, mirostat) runs again before every draw, with the history growing as in a
// real decode (the logits themselves stay fixed: there is no model behind them).
std::function<std::int32_t()> drawer(PreparedChain& prepared, engine::Rng& rng, const engine::Rng& stageRng)
{
    if (const auto lesson = engine::lessonFastPath(prepared.chain)) {
        // The lesson's walk, found by binary search: the same draws as sample(), O(log n) each.
        auto walk = std::make_shared<engine::CumulativeWalk>(engine::candidates(prepared.distribution.logits, *lesson));
        return [walk, &rng] { return walk->list()[walk->indexAt(rng.nextDouble())].id; };
    }
    auto context = std::make_shared<engine::SamplerContext>();
    context->history = prepared.history;
    engine::SamplerChain& chain = prepared.chain;
    chain.setRng(stageRng);  // XTC's coin: a stream of its own (engine::randomStageSeed)
    const auto& logits = prepared.distribution.logits;
    const auto n = static_cast<std::size_t>(logits.size());
    if (!chain.stateful()) {
        // Prefix sums and a binary search: the same index as drawIndex()'s walk, O(log n) a draw.
        auto draw = std::make_shared<engine::ArrayDraw>(chain.run(logits.data(), n, *context), chain.semantics());
        return [draw, &rng] { return draw->array()[draw->draw(rng)].id; };
    }
    return [context, &rng, &chain, &logits, n] {
        const engine::CandidateArray final = chain.run(logits.data(), n, *context);
        return chain.drawAndAccept(final, rng, *context);
    };
}

// How many tokens the draws choose among (for the work estimate of a chain that runs once).
std::size_t survivorCount(PreparedChain& prepared)
{
    if (const auto lesson = engine::lessonFastPath(prepared.chain))
        return engine::candidates(prepared.distribution.logits, *lesson).size();
    if (prepared.chain.stateful())
        return static_cast<std::size_t>(prepared.distribution.logits.size());
    engine::SamplerChain copy = prepared.chain;
    engine::SamplerContext context;
    context.history = prepared.history;
    const auto& logits = prepared.distribution.logits;
    return copy.run(logits.data(), static_cast<std::size_t>(logits.size()), context).size();
}

// Counts are kept by id; this is the label a count is shown and keyed under: the token's name,
// or "name#id" when several tokens of the vocabulary share that name, so their counts never
// merge. A label made that way may itself be another token's name (tokens "a", "a", "a#1"):
// that token gets its id appended as well, until every label is unique, so no draws are lost.
std::function<QString(std::int32_t)> countLabels(const engine::Distribution& distribution)
{
    const std::size_t n = distribution.tokens.size();
    std::vector<std::string> labels(n);
    std::unordered_map<std::string, std::vector<std::size_t>> holders;
    for (std::size_t id = 0; id < n; ++id)
        holders[distribution.tokens[id]].push_back(id);
    for (std::size_t id = 0; id < n; ++id)
        labels[id] = holders[distribution.tokens[id]].size() > 1 ? distribution.tokens[id] + "#" + std::to_string(id)
                                                                 : distribution.tokens[id];
    for (bool clash = true; clash;) {
        clash = false;
        std::unordered_map<std::string, std::vector<std::size_t>> byLabel;
        for (std::size_t id = 0; id < n; ++id)
            byLabel[labels[id]].push_back(id);
        for (auto& [label, ids] : byLabel) {
            if (ids.size() < 2)
                continue;
            clash = true;
            for (std::size_t id : ids)
                labels[id] += "#" + std::to_string(id);
        }
    }
    auto shared = std::make_shared<const std::vector<std::string>>(std::move(labels));
    return [shared, &distribution](std::int32_t id) {
        const auto at = static_cast<std::size_t>(id);
        return QString::fromStdString(at < shared->size() ? (*shared)[at] : distribution.tokenName(id));
    };
}

}  // namespace

CommandSpec sampleCommand()
{
    return {
        QStringLiteral("sample"),
        QStringLiteral("seeded draws through the sampler, counted per token"),
        QStringLiteral("Draw tokens through the sampler with a seeded generator and count them.\n"
                       "The same seed and RNG give the same draws on every machine."),
        {},
        {},
        samplerOptions() + chainOptions() +
            QList<QCommandLineOption>{
                {QStringLiteral("seed"), QStringLiteral("Seed (a whole number >= 0). Default 42."), QStringLiteral("S"),
                 QStringLiteral("42")},
                {QStringLiteral("rng"), QStringLiteral("Generator: mulberry32 (the lesson's), mt19937 or mt19937_64."),
                 QStringLiteral("name"), QStringLiteral("mulberry32")},
                {QStringLiteral("draws"), QStringLiteral("Number of draws (>= 0). Default 1000."), QStringLiteral("N"),
                 QStringLiteral("1000")},
                {QStringLiteral("sequence"), QStringLiteral("Also print the drawn ids in order.")},
                {QStringLiteral("json"), QStringLiteral("Print one JSON object.")},
            },
        runSample};
}

int runSample(CommandContext& context)
{
    QCommandLineParser parser;
    declareCommand(parser, sampleCommand());
    if (!parseOrThrow(parser, context.arguments, context.out))
        return 0;

    const ChainRequest request = readChainOptions(parser);
    PreparedChain prepared = prepareChain(parser, request, request.semantics);
    printVocabularyNote(context, prepared);
    const engine::Distribution& distribution = prepared.distribution;
    const qint64 seed = integerOption(parser, QStringLiteral("seed"), 0, std::numeric_limits<qint64>::max());
    const bool withSequence = parser.isSet(QStringLiteral("sequence"));
    const qint64 draws = integerOption(parser, QStringLiteral("draws"), 0, withSequence ? kMaxSequence : kMaxDraws);
    const QString rngName = parser.value(QStringLiteral("rng"));
    auto rng = engine::makeRng(rngName.toStdString(), static_cast<std::uint64_t>(seed));
    if (!rng)
        throw UsageError{QString::fromStdString(rng.error())};

    if (auto tooMuch = engine::checkWork(
            "draws",
            engine::sampleSteps(prepared.chain, static_cast<std::size_t>(distribution.logits.size()),
                                survivorCount(prepared), static_cast<double>(draws), prepared.history.size()),
            engine::kMaxSampleSteps,
            "use fewer draws (a chain with penalties, DRY, n-gram bans, XTC or mirostat runs again before every draw)"))
        throw UsageError{QString::fromStdString(*tooMuch)};

    std::map<std::int32_t, qint64> counts;
    QJsonArray sequence;
    const auto stageRng =
        engine::makeRng(rngName.toStdString(), engine::randomStageSeed(static_cast<std::uint64_t>(seed)));
    const std::function<std::int32_t()> next = drawer(prepared, *rng.value(), *stageRng.value());
    for (qint64 i = 0; i < draws; ++i) {
        const std::int32_t id = next();
        ++counts[id];
        if (withSequence)
            sequence.append(id);
    }

    const auto lesson = engine::lessonFastPath(prepared.chain);
    // Most drawn first; ties by id, so the order is deterministic.
    std::vector<std::pair<std::int32_t, qint64>> ranked(counts.begin(), counts.end());
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.second > b.second; });

    const auto label = countLabels(distribution);
    if (parser.isSet(QStringLiteral("json"))) {
        // "counts" keeps its name -> count shape (a shared name is keyed "name#id"); "by_id" lists
        // the same counts by id, most drawn first, with the name alongside.
        QJsonObject countsJson;
        QJsonArray byId;
        for (const auto& [id, count] : ranked) {
            countsJson.insert(label(id), count);
            byId.append(QJsonObject{{QStringLiteral("id"), id},
                                    {QStringLiteral("token"), QString::fromStdString(distribution.tokenName(id))},
                                    {QStringLiteral("count"), count}});
        }
        QJsonObject root{
            {QStringLiteral("counts"), countsJson},
            {QStringLiteral("by_id"), byId},
            {QStringLiteral("draws"), draws},
            {QStringLiteral("seed"), seed},
            {QStringLiteral("rng"), rngName},
            {QStringLiteral("settings"), requestedSettingsJson(request, prepared)},
            {QStringLiteral("semantics"), QString::fromStdString(engine::semanticsName(request.semantics))},
            {QStringLiteral("chain"), app::chainToJson(prepared.chain, true)}};
        if (withSequence)
            root.insert(QStringLiteral("sequence"), sequence);
        context.out << QJsonDocument(root).toJson(QJsonDocument::Compact) << '\n';
        return 0;
    }

    if (lesson)
        context.out << "settings: " << QString::fromStdString(engine::describeSettings(*lesson)) << '\n';
    context.out << "semantics: " << QString::fromStdString(engine::semanticsName(request.semantics)) << '\n'
                << "chain: " << QString::fromStdString(engine::formatChain(prepared.chain, true)) << '\n'
                << "rng: " << rngName << "  seed: " << seed << "  draws: " << draws << '\n';
    for (const auto& [id, count] : ranked)
        context.out << QStringLiteral("%1  %2  %3\n")
                           .arg(app::terminalText(label(id)), -16)
                           .arg(count, 10)
                           .arg(draws > 0 ? double(count) / double(draws) : 0.0, 0, 'f', 4);
    if (withSequence) {
        QStringList ids;
        for (const auto& v : sequence)
            ids << QString::number(v.toInteger());
        context.out << "sequence: " << ids.join(QLatin1Char(',')) << '\n';
    }
    return 0;
}

}  // namespace logitlab::cli
