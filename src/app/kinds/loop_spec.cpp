#include "app/kinds/loop_spec.h"

#include "app/kinds/loop_job.h"
#include <QObject>

#include "app/io/gguf_model_file.h"
#include "app/io/input_file.h"
#include "app/io/json_object_reader.h"
#include "app/io/save_text.h"
#include "app/kinds/imported_logits_source.h"
#include "engine/core/work_limits.h"
#include "engine/models/builtin_model.h"
#include "engine/models/word_tokens.h"
#include "engine/rng/rng_factory.h"
#include "engine/rng/seed_split.h"
#include "engine/sampler/chain_settings.h"
#include "engine/sampler/chain_text.h"
#include "engine/sampler/semantics.h"
#include "engine/transformer/gguf_model.h"

#include <QJsonDocument>
#include <QThread>

#include <algorithm>

namespace logitlab::app {

namespace {

using engine::Error;

LoopSpec readSpec(const QJsonObject& root)
{
    JsonObjectReader r(root, QString());
    LoopSpec spec;
    const ExperimentHeader header = readHeader(r, loopKind().id());
    spec.name = header.name;
    spec.description = header.description;
    readLoopModelKeys(r, spec, /*allowReplay=*/true, /*allowGguf=*/true);
    spec.seed = r.integer(QStringLiteral("seed"), spec.seed, 0, kMaxSeed);
    spec.rng = r.string(QStringLiteral("rng"), spec.rng, rngNameList());
    if (r.has(QStringLiteral("branch"))) {
        JsonObjectReader b(r.object(QStringLiteral("branch")), QStringLiteral("branch"));
        LoopBranchSpec branch;
        branch.at = b.integer(QStringLiteral("at"), {}, 0, (spec.steps > 0 ? spec.steps : kMaxLoopSteps) - 1);
        const bool hasToken = b.has(QStringLiteral("token"));
        const bool hasSeed = b.has(QStringLiteral("seed"));
        if (hasToken == hasSeed)
            throw JsonFieldError{QStringLiteral("branch"),
                                 QStringLiteral("needs exactly one of \"token\" and \"seed\"")};
        if (hasToken && spec.replay)
            throw JsonFieldError{
                QStringLiteral("branch.token"),
                QStringLiteral("a replay is teacher-forced: a forced token would not change the logits that follow; "
                               "branch with \"seed\"")};
        if (hasToken) {
            branch.token = b.string(QStringLiteral("token"), {});
            // A GGUF model's tokens are known once it is open (ggufLoopSource checks them).
            if (spec.modelFile.isEmpty() && !branchTokenId(branch))
                throw JsonFieldError{QStringLiteral("branch.token"),
                                     QStringLiteral("'%1' is not a token of the built-in model (%2 tokens)")
                                         .arg(branch.token)
                                         .arg(engine::builtinModel()->vocabSize())};
        } else {
            branch.seed = b.integer(QStringLiteral("seed"), {}, 0, kMaxSeed);
        }
        b.finish();
        spec.branch = branch;
    }
    r.finish();
    return spec;
}

}  // namespace

void readLoopModelKeys(JsonObjectReader& r, LoopSpec& spec, bool allowReplay, bool allowGguf)
{
    QStringList models{QStringLiteral("builtin")};
    if (allowReplay)
        models << QStringLiteral("file");
    if (allowGguf)
        models << QStringLiteral("gguf");
    const QString model = r.string(QStringLiteral("model"), QStringLiteral("builtin"), models);
    if (model == QStringLiteral("gguf")) {
        spec.modelFile = r.string(QStringLiteral("model-file"), {});
        if (spec.modelFile.isEmpty())
            throw JsonFieldError{QStringLiteral("model-file"), QStringLiteral("must name the GGUF model file")};
        spec.prompt = r.string(QStringLiteral("prompt"), {});
        if (spec.prompt.isEmpty())
            throw JsonFieldError{QStringLiteral("prompt"), QStringLiteral("must not be empty: the model continues it")};
        spec.steps = r.integer(QStringLiteral("steps"), spec.steps, 1, kMaxLoopSteps);
    } else if (model == QStringLiteral("file")) {
        // A replay: the prompt is the file's (generate's sequences), so there is no "prompt" key.
        JsonObjectReader l(r.object(QStringLiteral("logits")), QStringLiteral("logits"));
        LoopReplaySpec replay;
        replay.path = l.string(QStringLiteral("path"), {});
        if (replay.path.isEmpty())
            throw JsonFieldError{QStringLiteral("logits.path"), QStringLiteral("must not be empty")};
        replay.array = l.string(QStringLiteral("array"), QString());
        replay.batch = l.integer(QStringLiteral("batch"), 0, 0, kMaxRow);
        if (l.has(QStringLiteral("sequences")))
            replay.sequences = l.string(QStringLiteral("sequences"), {});
        replay.vocabularyFile = l.string(QStringLiteral("vocabulary-file"), QString());
        l.finish();
        spec.replay = replay;
        spec.steps = r.integer(QStringLiteral("steps"), 0, 0, kMaxLoopSteps);
    } else {
        spec.prompt = r.string(QStringLiteral("prompt"), {});
        if (engine::wordTokens(spec.prompt.toStdString()).empty())
            throw JsonFieldError{QStringLiteral("prompt"),
                                 QStringLiteral("must hold at least one word: the model needs a prompt to continue")};
        spec.steps = r.integer(QStringLiteral("steps"), spec.steps, 1, kMaxLoopSteps);
    }
    spec.semantics = r.string(QStringLiteral("semantics"), spec.semantics, semanticsNames());
    spec.chain = r.string(QStringLiteral("chain"), spec.chain);
    spec.arithmetic = r.string(QStringLiteral("arithmetic"), spec.arithmetic, arithmeticNames());
    if (const auto chain = loopChain(spec); !chain) {
        QString message = QString::fromStdString(chain.error());
        if (message.startsWith(QStringLiteral("chain: ")))
            message = message.mid(7);
        throw JsonFieldError{QStringLiteral("chain"), message};
    }
}

engine::Result<LoopSpec> parseLoop(const QJsonObject& root, const QString& source)
{
    return readStrictly<LoopSpec>(readSpec, root, source);
}

engine::Result<LoopSpec> readLoopFile(const QString& path) { return readExperimentFile<LoopSpec>(path, parseLoop); }

QJsonObject toJson(const LoopSpec& spec)
{
    QJsonObject root = headerToJson({spec.name, spec.description}, loopKind().id());
    if (spec.replay) {
        root.insert(QStringLiteral("model"), QStringLiteral("file"));
        QJsonObject logits{{QStringLiteral("path"), spec.replay->path}};
        if (!spec.replay->array.isEmpty())
            logits.insert(QStringLiteral("array"), spec.replay->array);
        logits.insert(QStringLiteral("batch"), spec.replay->batch);
        if (spec.replay->sequences)
            logits.insert(QStringLiteral("sequences"), *spec.replay->sequences);
        if (!spec.replay->vocabularyFile.isEmpty())
            logits.insert(QStringLiteral("vocabulary-file"), spec.replay->vocabularyFile);
        root.insert(QStringLiteral("logits"), logits);
    } else if (!spec.modelFile.isEmpty()) {
        root.insert(QStringLiteral("model"), QStringLiteral("gguf"));
        root.insert(QStringLiteral("model-file"), spec.modelFile);
        root.insert(QStringLiteral("prompt"), spec.prompt);
    } else {
        root.insert(QStringLiteral("model"), QStringLiteral("builtin"));
        root.insert(QStringLiteral("prompt"), spec.prompt);
    }
    root.insert(QStringLiteral("steps"), spec.steps);
    root.insert(QStringLiteral("semantics"), spec.semantics);
    root.insert(QStringLiteral("chain"), spec.chain);
    if (!spec.arithmetic.isEmpty())
        root.insert(QStringLiteral("arithmetic"), spec.arithmetic);
    root.insert(QStringLiteral("seed"), spec.seed);
    root.insert(QStringLiteral("rng"), spec.rng);
    if (spec.branch) {
        QJsonObject branch{{QStringLiteral("at"), spec.branch->at}};
        if (spec.branch->seed)
            branch.insert(QStringLiteral("seed"), *spec.branch->seed);
        else
            branch.insert(QStringLiteral("token"), spec.branch->token);
        root.insert(QStringLiteral("branch"), branch);
    }
    return root;
}

QString writeLoopFile(const QString& path, const LoopSpec& spec)
{
    return saveBytes(path, QJsonDocument(toJson(spec)).toJson(QJsonDocument::Indented));
}

engine::Result<engine::SamplerChain> loopChain(const LoopSpec& spec)
{
    const auto semantics = engine::parseSemantics(spec.semantics.toStdString());
    if (!semantics)
        return Error{"semantics: unknown preset '" + spec.semantics.toStdString() + "'"};
    auto chain = spec.chain.trimmed().isEmpty()
                     ? engine::buildChain(engine::withLibraryDefaults({}, *semantics), *semantics)
                     : engine::parseChain(spec.chain.toStdString(), *semantics);
    if (!chain)
        return chain;
    applyArithmetic(chain.value(), spec.arithmetic);
    return chain;
}

engine::Result<std::size_t> loopStepCount(const LoopSpec& spec, const engine::StepLogitsSource& source)
{
    const auto available = source.stepCount();
    auto steps = static_cast<std::size_t>(spec.steps);
    if (steps == 0 && available)
        steps = *available;
    if (available && steps > *available)
        return Error{"steps: " + std::to_string(steps) + " asked, but the file holds " + std::to_string(*available) +
                     " steps"};
    if (spec.branch && static_cast<std::size_t>(spec.branch->at) >= steps)
        return Error{"branch.at: step " + std::to_string(spec.branch->at) + " is past the run's last step (" +
                     std::to_string(steps) + " steps)"};
    // Only now is the run's size known (a replay's 0 is the file's step count): refused before
    // any step when it is over a limit.
    const auto chain = loopChain(spec);
    if (chain) {
        const std::size_t promptTokens = spec.replay ? 0 : engine::wordTokens(spec.prompt.toStdString()).size();
        const engine::WorkEstimate estimate =
            loopEstimate(spec, steps, source.vocabSize(), promptTokens, chain.value());
        if (auto problem = engine::checkEstimate(
                "steps", estimate,
                spec.replay ? "ask for fewer steps with \"steps\" (0 replays every step of the file)"
                            : "ask for fewer steps"))
            return Error{*problem};
    }
    return steps;
}

engine::WorkEstimate loopEstimate(const LoopSpec& spec, std::size_t steps, std::size_t vocabSize,
                                  std::size_t promptTokens, const engine::SamplerChain& chain)
{
    const double tracks = spec.branch ? 2.0 : 1.0;
    const double stepsRun = static_cast<double>(steps) * tracks;
    engine::WorkEstimate e;
    e.unit = "steps";
    e.workLimit = engine::kMaxLoopWorkSteps;
    // The chain over the vocabulary, then the model's softmax, rank and entropy: four passes.
    e.work = engine::sampleSteps(chain, vocabSize, vocabSize, stepsRun, promptTokens) +
             3.0 * stepsRun * static_cast<double>(vocabSize);
    // A step's record with its top tokens, its snapshot (chain and generator), its table row and
    // track copy: about 3 KiB; DRY's automaton of the history (prompt + steps) once, a few
    // hundred bytes a token; the vocabulary-sized buffers.
    const auto active = chain.activeStages();
    const bool dry =
        std::any_of(active.begin(), active.end(), [](const engine::SamplerStage* s) { return s->name() == "dry"; });
    e.memoryBytes = stepsRun * 3072.0 + (dry ? 512.0 * (static_cast<double>(promptTokens) + stepsRun) : 0.0) +
                    64.0 * static_cast<double>(vocabSize) + 8.0 * static_cast<double>(promptTokens);
    e.outputRows = stepsRun + tracks;
    e.chartPoints = stepsRun;
    return e;
}

engine::Result<engine::GenerationLoop> makeLoop(const LoopSpec& spec,
                                                std::shared_ptr<const engine::StepLogitsSource> source)
{
    auto chain = loopChain(spec);
    if (!chain)
        return Error{chain.error()};
    const auto seed = static_cast<std::uint64_t>(spec.seed);
    auto rng = engine::makeRng(spec.rng.toStdString(), seed);
    auto stageRng = engine::makeRng(spec.rng.toStdString(), engine::randomStageSeed(seed));
    if (!rng || !stageRng)
        return Error{rng ? stageRng.error() : rng.error()};
    chain.value().setRng(*stageRng.value());  // XTC's coin: a stream of its own
    if (spec.replay) {
        if (!source)
            return Error{"logits: the file is not open yet"};
        const auto* imported = dynamic_cast<const ImportedLogitsSource*>(source.get());
        auto prompt = imported ? imported->prompt() : std::vector<std::int32_t>{};
        return engine::GenerationLoop(std::move(source), std::move(chain).value(), std::move(rng).value(),
                                      std::move(prompt));
    }
    if (!spec.modelFile.isEmpty()) {
        const auto* gguf = dynamic_cast<const engine::transformer::GgufModelSource*>(source.get());
        if (!gguf)
            return Error{"model-file: the model is not open yet"};
        const QByteArray text = spec.prompt.toUtf8();
        auto prompt = gguf->model()->encode(std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
        return engine::GenerationLoop(std::move(source), std::move(chain).value(), std::move(rng).value(),
                                      std::move(prompt));
    }
    const auto model = engine::builtinModel();
    auto prompt = model->contextIds(engine::wordTokens(spec.prompt.toStdString()));
    return engine::GenerationLoop(model, std::move(chain).value(), std::move(rng).value(), std::move(prompt));
}

engine::Result<std::shared_ptr<const engine::StepLogitsSource>> ggufLoopSource(const LoopSpec& spec,
                                                                               const QString& baseDir,
                                                                               bool roomToStepOn, int threads,
                                                                               const ReadProgress& progress)
{
    auto model = openGgufModel(resolvedPath(spec.modelFile, baseDir), progress);
    if (!model)
        return Error{model.error() == "cancelled" ? model.error() : "model-file: " + model.error()};
    const QByteArray text = spec.prompt.toUtf8();
    const auto prompt =
        model.value()->encode(std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
    if (prompt.empty())
        return Error{"prompt: the model's tokenizer reads no tokens in it"};
    const auto promptTokens = static_cast<std::int64_t>(prompt.size());
    const std::int64_t most = model.value()->maxPositions();
    // A page asks for room to step on: as much as the context gives, N lowered to it there.
    const std::int64_t positions =
        roomToStepOn ? std::min(most, promptTokens + std::int64_t{kMaxLoopSteps}) : promptTokens + spec.steps;
    if (roomToStepOn && promptTokens >= most)
        return Error{QStringLiteral("prompt: its %1 tokens fill the %2 positions this model runs (its context, at "
                                    "most %3)")
                         .arg(promptTokens)
                         .arg(most)
                         .arg(engine::transformer::GgufModel::kMaxPositions)
                         .toStdString()};
    if (positions > most)
        return Error{QStringLiteral("steps: the prompt's %1 tokens and %2 steps are more than the %3 positions "
                                    "this model runs (its context, at most %4)")
                         .arg(promptTokens)
                         .arg(spec.steps)
                         .arg(most)
                         .arg(engine::transformer::GgufModel::kMaxPositions)
                         .toStdString()};
    auto source = engine::transformer::GgufModelSource::create(
        model.value(), positions, threads > 0 ? threads : std::max(1, QThread::idealThreadCount()));
    if (!source)
        return Error{source.error()};
    if (spec.branch && !spec.branch->token.isEmpty() && !branchTokenId(*spec.branch, source.value().get()))
        return Error{QStringLiteral("branch.token: '%1' is not a token of %2 (%3 tokens)")
                         .arg(spec.branch->token, spec.modelFile)
                         .arg(source.value()->vocabSize())
                         .toStdString()};
    return std::shared_ptr<const engine::StepLogitsSource>(std::move(source).value());
}

std::optional<std::int32_t> branchTokenId(const LoopBranchSpec& branch, const engine::StepLogitsSource* source)
{
    // A paragraph break is written "\n" in files and the page.
    const QString name = branch.token == QStringLiteral("\\n") ? QStringLiteral("\n") : branch.token;
    if (const auto* gguf = dynamic_cast<const engine::transformer::GgufModelSource*>(source))
        return gguf->model()->tokenId(name.toStdString());
    return engine::builtinModel()->tokenId(name.toStdString());
}

const ExperimentKind& loopKind()
{
    static const SpecKind<LoopSpec> kind(QStringLiteral("loop"), QObject::tr("Loop"), parseLoop,
                                         [](const LoopSpec& spec, const RunContext& c) {
                                             return loopResult(spec, runLoop(spec, c.baseDir, c.control), c.baseDir);
                                         });
    return kind;
}

}  // namespace logitlab::app
