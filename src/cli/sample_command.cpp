#include "sample_command.h"

#include "candidates.h"
#include "candidates_command.h"
#include "rng_factory.h"
#include "sample.h"
#include "sampler_options.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <limits>
#include <map>

namespace logitlab::cli {

namespace {

// Upper bounds that keep a typo from running for hours or filling memory.
constexpr qint64 kMaxDraws = 10'000'000'000;
constexpr qint64 kMaxSequence = 10'000'000;

}  // namespace

int runSample(CommandContext& context)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Draw tokens through the sampler with a seeded generator and count them.\n"
                       "The same seed and RNG give the same draws on every machine."));
    addSamplerOptions(parser);
    parser.addOptions({
        {QStringLiteral("seed"), QStringLiteral("Seed (a whole number >= 0). Default 42."), QStringLiteral("S"),
         QStringLiteral("42")},
        {QStringLiteral("rng"), QStringLiteral("Generator: mulberry32 (the lesson's), mt19937 or mt19937_64."),
         QStringLiteral("name"), QStringLiteral("mulberry32")},
        {QStringLiteral("draws"), QStringLiteral("Number of draws (>= 0). Default 1000."), QStringLiteral("N"),
         QStringLiteral("1000")},
        {QStringLiteral("sequence"), QStringLiteral("Also print the drawn ids in order.")},
        {QStringLiteral("json"), QStringLiteral("Print one JSON object.")},
    });
    if (!parseOrThrow(parser, context.arguments, context.out))
        return 0;

    const SamplerInput input = readSamplerOptions(parser);
    const qint64 seed = integerOption(parser, QStringLiteral("seed"), 0, std::numeric_limits<qint64>::max());
    const bool withSequence = parser.isSet(QStringLiteral("sequence"));
    const qint64 draws = integerOption(parser, QStringLiteral("draws"), 0, withSequence ? kMaxSequence : kMaxDraws);
    const QString rngName = parser.value(QStringLiteral("rng"));
    auto rng = engine::makeRng(rngName.toStdString(), static_cast<std::uint64_t>(seed));
    if (!rng)
        throw UsageError{QString::fromStdString(rng.error())};

    const engine::CandidateList survivors = engine::candidates(input.distribution.logits, input.settings);
    std::map<std::int32_t, qint64> counts;
    QJsonArray sequence;
    for (qint64 i = 0; i < draws; ++i) {
        const std::int32_t id = engine::sample(survivors, *rng.value());
        ++counts[id];
        if (withSequence)
            sequence.append(id);
    }

    // Most drawn first; ties by id, so the order is deterministic.
    std::vector<std::pair<std::int32_t, qint64>> ranked(counts.begin(), counts.end());
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.second > b.second; });

    if (parser.isSet(QStringLiteral("json"))) {
        QJsonObject countsJson;
        for (const auto& [id, count] : ranked)
            countsJson.insert(QString::fromStdString(input.distribution.tokenName(id)), count);
        QJsonObject root{{QStringLiteral("counts"), countsJson},
                         {QStringLiteral("draws"), draws},
                         {QStringLiteral("seed"), seed},
                         {QStringLiteral("rng"), rngName},
                         {QStringLiteral("settings"), settingsJson(input.settings)}};
        if (withSequence)
            root.insert(QStringLiteral("sequence"), sequence);
        context.out << QJsonDocument(root).toJson(QJsonDocument::Compact) << '\n';
        return 0;
    }

    context.out << "settings: " << QString::fromStdString(engine::describeSettings(input.settings)) << '\n'
                << "rng: " << rngName << "  seed: " << seed << "  draws: " << draws << '\n';
    for (const auto& [id, count] : ranked)
        context.out << QStringLiteral("%1  %2  %3\n")
                           .arg(QString::fromStdString(input.distribution.tokenName(id)), -16)
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
