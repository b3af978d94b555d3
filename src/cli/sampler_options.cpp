#include "cli/sampler_options.h"

#include "app/io/gguf_model_file.h"
#include "app/io/logits_file.h"
#include "cli/chain_options.h"
#include "engine/io/logits_parser.h"
#include "engine/sampler/sampler_parameters.h"

#include <optional>

namespace logitlab::cli {

namespace {

QString fromStd(const std::string& s) { return QString::fromStdString(s); }

// --row and --batch: any whole number (negative counts from the end); the file's shape checks the range.
std::optional<std::int64_t> rowOption(const QCommandLineParser& parser, const QString& name)
{
    if (!parser.isSet(name))
        return std::nullopt;
    return integerOption(parser, name, -(qint64{1} << 40), qint64{1} << 40);
}

DistributionInput readDistribution(const QCommandLineParser& parser)
{
    const bool inline_ = parser.isSet(QStringLiteral("logits"));
    const bool fromFile = parser.isSet(QStringLiteral("logits-file"));
    const bool fromProbs = parser.isSet(QStringLiteral("probs"));
    const bool fromModel = parser.isSet(QStringLiteral("model"));
    if (parser.isSet(QStringLiteral("prompt")) != fromModel)
        throw UsageError{fromModel ? QStringLiteral("--model: give the --prompt the model continues")
                                   : QStringLiteral("--prompt needs --model (a GGUF model file)")};
    if (fromModel && (inline_ || fromFile || fromProbs))
        throw UsageError{QStringLiteral("give either --model or --logits/--logits-file/--probs, not both")};
    if (fromModel && (parser.isSet(QStringLiteral("tokens")) || parser.isSet(QStringLiteral("vocabulary"))))
        throw UsageError{QStringLiteral("--model names its tokens itself: drop --tokens and --vocabulary")};
    if (fromProbs && (inline_ || fromFile))
        throw UsageError{QStringLiteral("give either --probs or --logits/--logits-file, not both")};
    if (inline_ == fromFile && !fromProbs && !fromModel)
        throw UsageError{inline_ ? QStringLiteral("give either --logits or --logits-file, not both")
                                 : QStringLiteral("no logits: give --logits 3,2,1.5 or --logits-file FILE")};

    for (const char* option : {"array", "row", "batch", "vocabulary"})
        if (parser.isSet(QString::fromLatin1(option)) && !fromFile)
            throw UsageError{QStringLiteral("--%1 needs --logits-file").arg(QString::fromLatin1(option))};
    if (parser.isSet(QStringLiteral("vocabulary")) && parser.isSet(QStringLiteral("tokens")))
        throw UsageError{QStringLiteral("give either --tokens or --vocabulary, not both")};

    DistributionInput input;
    engine::Distribution& dist = input.distribution;
    if (fromModel) {
        auto next = app::ggufNextTokenDistribution(parser.value(QStringLiteral("model")),
                                                   parser.value(QStringLiteral("prompt")));
        if (!next)
            throw UsageError{fromStd(next.error())};
        dist = std::move(next).value();
    } else if (fromProbs) {
        dist.logits = logitsFromProbabilities(parser.value(QStringLiteral("probs")));
    } else if (fromFile) {
        app::LogitsFileRequest request;
        request.array = parser.value(QStringLiteral("array"));
        request.row.step = rowOption(parser, QStringLiteral("row"));
        request.row.batch = rowOption(parser, QStringLiteral("batch"));
        request.vocabulary = parser.value(QStringLiteral("vocabulary"));
        auto read = app::readLogitsFile(parser.value(QStringLiteral("logits-file")), request);
        if (!read)
            throw UsageError{fromStd(read.error())};
        dist = std::move(read->distribution);
        input.rawTokens = std::move(read->rawTokens);
        input.vocabularyNote = std::move(read->vocabularyNote);
    } else {
        auto values = engine::parseNumberList(parser.value(QStringLiteral("logits")).toStdString(), "logits");
        if (!values)
            throw UsageError{fromStd(values.error())};
        dist.logits = Eigen::Map<const Eigen::ArrayXd>(values->data(), static_cast<Eigen::Index>(values->size()));
        if (auto problem = engine::validateLogits(dist.logits))
            throw UsageError{fromStd(*problem)};
    }

    if (parser.isSet(QStringLiteral("tokens"))) {
        auto tokens = engine::parseTokenList(parser.value(QStringLiteral("tokens")).toStdString());
        if (!tokens)
            throw UsageError{fromStd(tokens.error())};
        if (static_cast<Eigen::Index>(tokens->size()) != dist.logits.size())
            throw UsageError{QStringLiteral("tokens: %1 tokens for %2 logits; the lengths must match")
                                 .arg(tokens->size())
                                 .arg(dist.logits.size())};
        dist.tokens = std::move(tokens).value();
    }
    return input;
}

}  // namespace

QList<QCommandLineOption> samplerOptions()
{
    QList<QCommandLineOption> options{
        {QStringLiteral("logits"), QStringLiteral("Comma-separated logits, e.g. 3,2,1.5,1,-2 (-inf allowed)."),
         QStringLiteral("list")},
        {QStringLiteral("logits-file"),
         QStringLiteral("File of logits: one per line, token,logit CSV rows, or a model's dump as NumPy .npy/.npz or "
                        "safetensors (told by its content; docs/import.md)."),
         QStringLiteral("file")},
        {QStringLiteral("array"),
         QStringLiteral("The .npz member or safetensors tensor to read (default: the only one)."),
         QStringLiteral("name")},
        {QStringLiteral("row"),
         QStringLiteral(
             "The step of a [steps, V] or [batch, steps, V] array; negative counts from the end (-1 is the last)."),
         QStringLiteral("n")},
        {QStringLiteral("batch"),
         QStringLiteral("The batch of a [batch, steps, V] array; negative counts from the end."), QStringLiteral("n")},
        {QStringLiteral("vocabulary"),
         QStringLiteral("Token names: a Hugging Face tokenizer.json or a text file with one token per line."),
         QStringLiteral("file")},
        {QStringLiteral("model"),
         QStringLiteral("A GGUF model (llama, qwen2 or gpt2) run on the CPU: its next-token logits after --prompt."),
         QStringLiteral("file.gguf")},
        {QStringLiteral("prompt"), QStringLiteral("The text --model continues, read by the model's tokenizer."),
         QStringLiteral("text")},
        {QStringLiteral("probs"),
         QStringLiteral("Comma-separated probabilities instead of logits (logit = ln p; 0 is -inf)."),
         QStringLiteral("list")},
        {QStringLiteral("tokens"), QStringLiteral("Comma-separated token names, one per logit (default: ids)."),
         QStringLiteral("list")},
    };
    return options + parameterOptions(true);
}

QList<QCommandLineOption> parameterOptions(bool lesson)
{
    QList<QCommandLineOption> options;
    for (const engine::SamplerParameter& p : engine::samplerParameters())
        if ((p.group == engine::ParameterGroup::Lesson) == lesson)
            options.append(
                {QString::fromLatin1(p.name), QString::fromLatin1(p.help), QString::fromLatin1(p.valueName)});
    return options;
}

DistributionInput readDistributionOptions(const QCommandLineParser& parser) { return readDistribution(parser); }

SamplerInput readSamplerOptions(const QCommandLineParser& parser)
{
    SamplerInput input;
    input.input = readDistribution(parser);
    if (parser.isSet(QStringLiteral("temperature")))
        input.settings.temperature = doubleOption(parser, QStringLiteral("temperature"));
    if (parser.isSet(QStringLiteral("top-k"))) {
        const engine::SamplerParameter& topK = *engine::findSamplerParameter("top-k");
        input.settings.topK = static_cast<int>(integerOption(
            parser, QStringLiteral("top-k"), static_cast<qint64>(topK.minimum), static_cast<qint64>(topK.maximum)));
    }
    if (parser.isSet(QStringLiteral("top-p")))
        input.settings.topP = doubleOption(parser, QStringLiteral("top-p"));
    if (auto problem = engine::validateSettings(input.settings))
        throw UsageError{fromStd(*problem)};
    return input;
}

}  // namespace logitlab::cli
