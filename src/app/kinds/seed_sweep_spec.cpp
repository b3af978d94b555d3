#include "app/kinds/seed_sweep_spec.h"

#include "app/kinds/seed_sweep_job.h"
#include "app/kinds/sequence_sweep_job.h"
#include "app/kinds/step_sweep_job.h"
#include <QObject>

#include "app/io/json_object_reader.h"
#include "engine/core/work_limits.h"
#include "engine/models/word_tokens.h"
#include "engine/sampler/candidate.h"
#include "engine/sampler/chain_evaluation.h"
#include "engine/sampler/chain_text.h"
#include "engine/sampler/sampler_context.h"
#include "engine/sampler/semantics.h"
#include "engine/sampler/stateless_chain.h"

#include <QJsonArray>
#include <QSet>

#include <algorithm>

namespace logitlab::app {

namespace {

using engine::Error;

void readSeeds(JsonObjectReader& r, SeedSweepSpec& spec)
{
    const QString key = QStringLiteral("seeds");
    const QJsonValue value = r.value(key);
    const qint64 maxSeeds = static_cast<qint64>(engine::SeedSweepExperiment::kMaxSeeds);
    if (value.isArray()) {
        const QJsonArray items = value.toArray();
        if (items.isEmpty() || items.size() > maxSeeds)
            throw JsonFieldError{key, QStringLiteral("must list 1..%1 seeds").arg(maxSeeds)};
        spec.seedRange = false;
        QSet<qint64> seen;
        for (qsizetype i = 0; i < items.size(); ++i) {
            const QString path = key + QLatin1Char('.') + QString::number(i);
            const qint64 seed = JsonObjectReader::integerAt(items[i], path, 0, kMaxSeed);
            if (seen.contains(seed))
                throw JsonFieldError{path, QStringLiteral("repeats seed %1").arg(seed)};
            seen.insert(seed);
            spec.seedList << seed;
        }
        return;
    }
    if (!value.isObject())
        throw JsonFieldError{key, QStringLiteral("must be a list of seeds or {\"first\": ..., \"count\": ...}")};
    JsonObjectReader range(value.toObject(), key);
    spec.seedRange = true;
    spec.firstSeed = range.integer(QStringLiteral("first"), 0, 0, kMaxSeed);
    spec.seedCount = range.integer(QStringLiteral("count"), {}, 1, maxSeeds);
    if (spec.firstSeed + spec.seedCount - 1 > kMaxSeed)
        throw JsonFieldError{range.keyPath(QStringLiteral("count")),
                             QStringLiteral("runs past the largest seed %1").arg(kMaxSeed)};
    range.finish();
}

// The keys of a sweep over whole replies of the built-in model (the distribution ones are refused
// by finish() as unknown here).
void readSequenceKeys(JsonObjectReader& r, SeedSweepSpec& spec)
{
    // The distribution mode's keys say something else here: name them rather than "unknown key".
    for (const char* key : {"distribution", "draws", "compare"})
        if (r.has(QLatin1String(key)))
            throw JsonFieldError{QLatin1String(key),
                                 QStringLiteral("is not read by a sweep over whole replies (\"source\": \"sequence\"): "
                                                "the model is the built-in one and the reply length is \"steps\"")};
    LoopSpec loop = replyLoopSpec(spec, 0);
    readLoopModelKeys(r, loop, /*allowReplay=*/false, /*allowGguf=*/true);
    spec.prompt = loop.prompt;
    spec.modelFile = loop.modelFile;
    spec.steps = loop.steps;
    spec.semantics = loop.semantics;
    spec.chain = loop.chain;
    spec.arithmetic = loop.arithmetic;
    spec.rng = r.string(QStringLiteral("rng"), spec.rng, rngNameList());
    readSeeds(r, spec);
    if (auto problem =
            engine::checkWork("seeds", sequenceSweepPasses(spec), static_cast<double>(kMaxSequenceSweepPasses),
                              "fewer seeds, shorter replies or a shorter prompt (every seed reads the prompt and "
                              "makes one model pass per step)",
                              "model passes"))
        throw JsonFieldError{QStringLiteral("seeds"),
                             QString::fromStdString(problem->substr(std::string("seeds: ").size()))};
}

}  // namespace

double sequenceSweepPasses(const SeedSweepSpec& spec)
{
    // Each seed tokenises and copies the prompt into its loop, and the chain's history scans read
    // it: every kPromptTokensPerPass prompt tokens cost about one model pass.
    const double promptTokens = static_cast<double>(engine::wordTokens(spec.prompt.toStdString()).size());
    return static_cast<double>(spec.seeds().size()) *
           (static_cast<double>(spec.steps) + promptTokens / kPromptTokensPerPass);
}

namespace {

SeedSweepSpec readSpec(const QJsonObject& root)
{
    JsonObjectReader r(root, QString());
    SeedSweepSpec spec;
    const ExperimentHeader header = readHeader(r, seedSweepKind().id());
    spec.name = header.name;
    spec.description = header.description;
    const QString source = r.string(QStringLiteral("source"), QStringLiteral("distribution"),
                                    {QStringLiteral("distribution"), QStringLiteral("sequence")});
    if (source == QStringLiteral("sequence")) {
        spec.source = SeedSweepSpec::Source::Sequence;
        readSequenceKeys(r, spec);
        r.finish();
        return spec;
    }
    JsonObjectReader distribution(r.object(QStringLiteral("distribution")), QStringLiteral("distribution"));
    // A file's "steps" (step_range.h) sweeps every step of the range in turn (step_sweep_job.h).
    spec.distribution = readDistribution(distribution, true);
    spec.semantics = r.string(QStringLiteral("semantics"), spec.semantics, semanticsNames());
    spec.chain = r.string(QStringLiteral("chain"), spec.chain);
    spec.arithmetic = r.string(QStringLiteral("arithmetic"), spec.arithmetic, arithmeticNames());
    spec.rng = r.string(QStringLiteral("rng"), spec.rng, rngNameList());
    readSeeds(r, spec);
    spec.draws = r.integer(QStringLiteral("draws"), spec.draws, 1,
                           static_cast<qint64>(engine::SeedSweepExperiment::kMaxDrawsPerSeed));
    if (r.has(QStringLiteral("compare"))) {
        const QJsonArray pair = r.array(QStringLiteral("compare"));
        if (pair.size() != 2)
            throw JsonFieldError{QStringLiteral("compare"), QStringLiteral("must name exactly two seeds")};
        spec.compare = std::make_pair(JsonObjectReader::integerAt(pair[0], QStringLiteral("compare.0"), 0, kMaxSeed),
                                      JsonObjectReader::integerAt(pair[1], QStringLiteral("compare.1"), 0, kMaxSeed));
        const auto seeds = spec.seeds();
        for (int i = 0; i < 2; ++i) {
            const qint64 s = i == 0 ? spec.compare->first : spec.compare->second;
            if (std::find(seeds.begin(), seeds.end(), static_cast<std::uint64_t>(s)) == seeds.end())
                throw JsonFieldError{QStringLiteral("compare.%1").arg(i),
                                     QStringLiteral("seed %1 is not one of the swept seeds").arg(s)};
        }
    }
    r.finish();
    return spec;
}

}  // namespace

std::vector<std::uint64_t> SeedSweepSpec::seeds() const
{
    std::vector<std::uint64_t> out;
    if (seedRange) {
        out.reserve(static_cast<std::size_t>(seedCount));
        for (qint64 i = 0; i < seedCount; ++i)
            out.push_back(static_cast<std::uint64_t>(firstSeed + i));
    } else {
        out.assign(seedList.begin(), seedList.end());
    }
    return out;
}

engine::Result<SeedSweepSpec> parseSeedSweep(const QJsonObject& root, const QString& source)
{
    return readStrictly<SeedSweepSpec>(readSpec, root, source);
}

engine::Result<SeedSweepSpec> readSeedSweepFile(const QString& path)
{
    return readExperimentFile<SeedSweepSpec>(path, parseSeedSweep);
}

QJsonObject toJson(const SeedSweepSpec& spec)
{
    QJsonObject root = headerToJson({spec.name, spec.description}, seedSweepKind().id());
    if (spec.isSequence()) {
        root.insert(QStringLiteral("source"), QStringLiteral("sequence"));
        root.insert(QStringLiteral("model"),
                    spec.modelFile.isEmpty() ? QStringLiteral("builtin") : QStringLiteral("gguf"));
        if (!spec.modelFile.isEmpty())
            root.insert(QStringLiteral("model-file"), spec.modelFile);
        root.insert(QStringLiteral("prompt"), spec.prompt);
        root.insert(QStringLiteral("steps"), spec.steps);
    } else {
        root.insert(QStringLiteral("distribution"), distributionToJson(spec.distribution));
    }
    root.insert(QStringLiteral("semantics"), spec.semantics);
    root.insert(QStringLiteral("chain"), spec.chain);
    if (!spec.arithmetic.isEmpty())
        root.insert(QStringLiteral("arithmetic"), spec.arithmetic);
    root.insert(QStringLiteral("rng"), spec.rng);
    if (spec.seedRange) {
        root.insert(QStringLiteral("seeds"),
                    QJsonObject{{QStringLiteral("first"), spec.firstSeed}, {QStringLiteral("count"), spec.seedCount}});
    } else {
        QJsonArray list;
        for (qint64 s : spec.seedList)
            list.append(s);
        root.insert(QStringLiteral("seeds"), list);
    }
    if (!spec.isSequence())
        root.insert(QStringLiteral("draws"), spec.draws);
    if (spec.compare)
        root.insert(QStringLiteral("compare"), QJsonArray{spec.compare->first, spec.compare->second});
    return root;
}

LoopSpec replyLoopSpec(const SeedSweepSpec& spec, std::uint64_t seed)
{
    LoopSpec loop;
    loop.name = spec.name;
    loop.prompt = spec.prompt;
    loop.steps = spec.steps;
    loop.semantics = spec.semantics;
    loop.chain = spec.chain;
    loop.arithmetic = spec.arithmetic;
    loop.seed = static_cast<qint64>(seed);
    loop.rng = spec.rng;
    loop.modelFile = spec.modelFile;
    return loop;
}

engine::Result<engine::SamplerChain> sweepChain(const SeedSweepSpec& spec)
{
    if (spec.isSequence())
        return loopChain(replyLoopSpec(spec, 0));
    auto chain = engine::parseStatelessChain(spec.semantics.toStdString(), spec.chain.toStdString(),
                                             "a sweep over one fixed distribution needs a stateless chain");
    if (!chain)
        return chain;
    engine::SamplerChain built = std::move(chain).value();
    applyArithmetic(built, spec.arithmetic);
    return built;
}

engine::Result<SeedSweepInput> toSeedSweepInput(const SeedSweepSpec& spec, const QString& baseDir,
                                                const QString& source)
{
    const auto fail = [&source](const QString& key, const std::string& message) {
        // Engine messages often name the key already ("chain: unknown stage ..."): say it once.
        const QString text = QString::fromStdString(message);
        const QString prefix = key + QStringLiteral(": ");
        return Error{(source + QStringLiteral(": ") + (text.startsWith(prefix) ? text : prefix + text)).toStdString()};
    };
    auto distribution = resolveDistribution(spec.distribution, baseDir);
    if (!distribution)
        return fail(QStringLiteral("distribution"), distribution.error());

    auto chain = sweepChain(spec);
    if (!chain)
        return fail(QStringLiteral("chain"), chain.error());
    engine::SamplerContext context;
    context.vocabSize = static_cast<std::size_t>(distribution->logits.size());
    engine::CandidateList survivors = engine::evaluateChain(chain.value(), distribution->logits, context);
    // Tokens the chain leaves at probability 0 can never be drawn: they are not outcomes.
    std::erase_if(survivors, [](const engine::Candidate& c) { return c.p <= 0.0; });
    if (survivors.empty())
        return fail(QStringLiteral("chain"), "leaves no token to draw");

    SeedSweepInput input;
    input.parameters.source = std::make_shared<engine::CandidateSource>(
        std::move(survivors), spec.semantics.toStdString() + ": " + engine::formatChain(chain.value(), true));
    input.parameters.rng = spec.rng.toStdString();
    input.parameters.seeds = spec.seeds();
    input.parameters.drawsPerSeed = static_cast<std::uint64_t>(spec.draws);
    if (spec.compare)
        input.parameters.compared = std::array<std::uint64_t, 2>{static_cast<std::uint64_t>(spec.compare->first),
                                                                 static_cast<std::uint64_t>(spec.compare->second)};
    input.distribution = std::move(distribution).value();
    return input;
}

const ExperimentKind& seedSweepKind()
{
    static const SpecKind<SeedSweepSpec> kind(
        QStringLiteral("seed-sweep"), QObject::tr("Seed sweep"), parseSeedSweep,
        [](const SeedSweepSpec& spec, const RunContext& c) {
            // One kind, two sources: the file's "source" says what a seed changes.
            if (spec.isSequence())
                return sequenceSweepResult(
                    spec, c.baseDir, runSequenceSweep(spec, c.baseDir, c.source, c.threads, c.control), c.threads);
            if (spec.distribution.steps)  // every step of an imported file in turn
                return stepSweepResult(spec, c.baseDir, runStepSweep(spec, c.baseDir, c.source, c.threads, c.control),
                                       c.threads);
            return seedSweepResult(spec, c.baseDir, runSeedSweep(spec, c.baseDir, c.source, c.threads, c.control),
                                   c.threads);
        });
    return kind;
}

}  // namespace logitlab::app
