#include "app/kinds/step_source.h"

#include "app/io/gguf_model_file.h"
#include "app/io/input_file.h"
#include "app/io/logits_array.h"
#include "app/io/logits_file.h"
#include "app/io/vocabulary_file.h"
#include "app/kinds/loop_spec.h"
#include "app/text/step_range.h"
#include "engine/models/builtin_model.h"
#include "engine/models/model_logits_source.h"
#include "engine/models/word_tokens.h"
#include "engine/transformer/gguf_model.h"

#include <QDir>
#include <QFileInfo>

#include <memory>

namespace logitlab::app {

namespace {

using engine::Error;

// The loop's own spec for a reply, so the chain and generator are built exactly as the loop
// page builds them (makeLoop).
LoopSpec loopSpecOf(const ReplySpec& reply)
{
    LoopSpec loop;
    loop.prompt = reply.prompt;
    loop.steps = reply.length;
    loop.semantics = reply.semantics;
    loop.chain = reply.chain;
    loop.arithmetic = reply.arithmetic;
    loop.seed = reply.seed;
    loop.rng = reply.rng;
    loop.modelFile = reply.modelFile;
    return loop;
}

}  // namespace

ReplySpec readReply(JsonObjectReader& r)
{
    ReplySpec reply;
    const QString model = r.string(QStringLiteral("model"), QStringLiteral("builtin"),
                                   {QStringLiteral("builtin"), QStringLiteral("gguf")});
    if (model == QStringLiteral("gguf")) {
        reply.modelFile = r.string(QStringLiteral("model-file"), {});
        if (reply.modelFile.isEmpty())
            throw JsonFieldError{r.keyPath(QStringLiteral("model-file")),
                                 QStringLiteral("must name the GGUF model file")};
    }
    reply.prompt = r.string(QStringLiteral("prompt"), {});
    if (!reply.modelFile.isEmpty() ? reply.prompt.isEmpty() : engine::wordTokens(reply.prompt.toStdString()).empty())
        throw JsonFieldError{r.keyPath(QStringLiteral("prompt")),
                             QStringLiteral("must hold at least one word: the model continues a prompt")};
    reply.length = r.integer(QStringLiteral("length"), reply.length, 1, kMaxReplyLength);
    reply.semantics = r.string(QStringLiteral("semantics"), reply.semantics, semanticsNames());
    reply.chain = r.string(QStringLiteral("chain"), reply.chain);
    reply.arithmetic = r.string(QStringLiteral("arithmetic"), reply.arithmetic, arithmeticNames());
    if (const auto chain = loopChain(loopSpecOf(reply)); !chain) {
        QString message = QString::fromStdString(chain.error());
        if (message.startsWith(QStringLiteral("chain: ")))
            message = message.mid(7);
        throw JsonFieldError{r.keyPath(QStringLiteral("chain")), message};
    }
    reply.seed = r.integer(QStringLiteral("seed"), reply.seed, 0, kMaxSeed);
    reply.rng = r.string(QStringLiteral("rng"), reply.rng, rngNameList());
    r.finish();
    return reply;
}

QJsonObject replyToJson(const ReplySpec& reply)
{
    QJsonObject o{
        {QStringLiteral("model"), reply.modelFile.isEmpty() ? QStringLiteral("builtin") : QStringLiteral("gguf")},
        {QStringLiteral("prompt"), reply.prompt},
        {QStringLiteral("length"), reply.length},
        {QStringLiteral("semantics"), reply.semantics},
        {QStringLiteral("seed"), reply.seed},
        {QStringLiteral("rng"), reply.rng}};
    if (!reply.modelFile.isEmpty())
        o.insert(QStringLiteral("model-file"), reply.modelFile);
    if (!reply.chain.isEmpty())
        o.insert(QStringLiteral("chain"), reply.chain);
    if (!reply.arithmetic.isEmpty())
        o.insert(QStringLiteral("arithmetic"), reply.arithmetic);
    return o;
}

QString describeReply(const ReplySpec& reply)
{
    const QString model =
        reply.modelFile.isEmpty()
            ? QStringLiteral("builtin model (%1)").arg(QString::fromStdString(engine::builtinModelSources()))
            : QStringLiteral("GGUF model %1").arg(reply.modelFile);
    return QStringLiteral("%1 reply of %2 tokens to \"%3\", %4: %5, seed %6, rng %7")
        .arg(model)
        .arg(reply.length)
        .arg(reply.prompt, reply.semantics, reply.chain.isEmpty() ? QStringLiteral("preset defaults") : reply.chain)
        .arg(reply.seed)
        .arg(reply.rng);
}

engine::Result<engine::StepDistributions> fileSteps(const DistributionSpec& spec, const QString& baseDir)
{
    const auto resolved = [&](const QString& path) { return resolvedPath(path, baseDir); };
    const QString path = resolved(spec.path);
    const std::string what = path.toStdString();
    if (!spec.steps)
        return Error{what + ": distribution.steps: missing (a reply needs a range of steps)"};
    if (auto problem = logitsFileProblem(path))
        return Error{*problem};
    if (fileFormat(path) == engine::LogitsFormat::Text)
        return Error{what + ": distribution.steps: a text file holds one distribution; a range of steps needs a "
                            ".npy, .npz or safetensors file"};
    auto opened = LogitsArray::open(path, spec.array);
    if (!opened)
        return Error{opened.error()};
    auto array = std::make_shared<const LogitsArray>(std::move(opened).value());
    const auto range =
        resolveStepRange(*spec.steps, array->layout().steps(), array->layout().what, "distribution.steps");
    if (!range)
        return Error{range.error()};
    // The batch as "row" would choose it, with the range's first step standing in for the row.
    const auto chosen = engine::resolveRow(array->layout(), {spec.batch, static_cast<std::int64_t>(range->first)});
    if (!chosen)
        return Error{chosen.error()};
    const std::uint64_t batch = chosen->first;
    const std::uint64_t first = range->first;

    engine::StepDistributions steps;
    steps.count = static_cast<std::size_t>(range->second - range->first + 1);
    for (std::uint64_t s = range->first; s <= range->second; ++s)
        steps.sourceSteps.push_back(s);
    steps.logits = [array, batch, first](std::size_t index) { return array->row(batch, first + index); };
    if (!spec.vocabularyFile.isEmpty()) {
        const QString vocabularyPath = resolved(spec.vocabularyFile);
        auto table = readVocabularyFile(vocabularyPath);
        if (!table)
            return Error{table.error()};
        auto vocabulary = engine::fitVocabulary(*table, static_cast<std::size_t>(array->layout().vocabulary()),
                                                vocabularyPath.toStdString());
        if (!vocabulary)
            return Error{vocabulary.error()};
        steps.tokens = std::move(vocabulary->shown);
    }
    return steps;
}

engine::Result<engine::StepDistributions> replySteps(const ReplySpec& reply, const QString& baseDir,
                                                     const std::function<bool()>& cancelled)
{
    const bool gguf = !reply.modelFile.isEmpty();
    if (gguf ? reply.prompt.isEmpty() : engine::wordTokens(reply.prompt.toStdString()).empty())
        return Error{"reply.prompt: must hold at least one word: the model continues a prompt"};
    if (reply.length < 1 || reply.length > kMaxReplyLength)
        return Error{"reply.length: " + std::to_string(reply.length) + " is outside 1.." +
                     std::to_string(kMaxReplyLength)};
    const LoopSpec spec = loopSpecOf(reply);
    std::shared_ptr<const engine::StepLogitsSource> source;
    if (gguf) {
        auto opened = ggufLoopSource(spec, baseDir);
        if (!opened)
            return Error{"reply." + opened.error()};
        source = std::move(opened).value();
        // The reply is generated, then its steps read again: two passes a token.
        const auto* model = dynamic_cast<const engine::transformer::GgufModelSource*>(source.get());
        if (auto problem = modelWorkProblem(model->model()->parameterCount(), 2.0 * static_cast<double>(reply.length),
                                            "reply.length",
                                            "a shorter reply or a smaller model (two passes of the model per token)"))
            return Error{*problem};
    }
    auto loop = makeLoop(spec, source);
    if (!loop)
        return Error{"reply: " + loop.error()};
    for (qint64 i = 0; i < reply.length; ++i) {
        if (cancelled && cancelled())
            return Error{"cancelled"};
        loop.value().step();
    }
    if (const auto fault = loop.value().source().fault())
        return Error{"reply.model-file: " + *fault};
    if (!source)
        source = std::make_shared<engine::ModelLogitsSource>(engine::builtinModel());
    // Step t reads the prompt and the reply's first t tokens: the context the loop gave the
    // model when it drew token t.
    auto context = std::make_shared<std::vector<std::int32_t>>(loop.value().prompt());
    const std::size_t promptLength = context->size();
    const std::vector<std::int32_t> generated = loop.value().tokens();
    context->insert(context->end(), generated.begin(), generated.end());

    engine::StepDistributions steps;
    steps.count = generated.size();
    steps.tokens = source->tokens();
    for (std::int32_t id : generated) {
        const std::string& token = source->tokens()[static_cast<std::size_t>(id)];
        steps.chosen.push_back(token == "\n" ? std::string("\\n") : token);
    }
    steps.logits = [source, context, promptLength](std::size_t index) -> engine::Result<Eigen::ArrayXd> {
        Eigen::ArrayXd logits(static_cast<Eigen::Index>(source->vocabSize()));
        source->logits(index, std::span<const std::int32_t>(context->data(), promptLength + index), logits.data());
        if (const auto fault = source->fault())
            return Error{"reply.model-file: " + *fault};
        return logits;
    };
    return steps;
}

}  // namespace logitlab::app
