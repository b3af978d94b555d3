#include "sampler_options.h"

#include "chain_options.h"
#include "logits_file.h"
#include "logits_parser.h"
#include "sampler_parameters.h"


namespace logitlab::cli {

namespace {

QString fromStd(const std::string& s)
{
    return QString::fromStdString(s);
}

engine::Distribution readDistribution(const QCommandLineParser& parser)
{
    const bool inline_ = parser.isSet(QStringLiteral("logits"));
    const bool fromFile = parser.isSet(QStringLiteral("logits-file"));
    const bool fromProbs = parser.isSet(QStringLiteral("probs"));
    if (fromProbs && (inline_ || fromFile))
        throw UsageError{QStringLiteral("give either --probs or --logits/--logits-file, not both")};
    if (inline_ == fromFile && !fromProbs)
        throw UsageError{inline_ ? QStringLiteral("give either --logits or --logits-file, not both")
                                 : QStringLiteral("no logits: give --logits 3,2,1.5 or --logits-file FILE")};

    engine::Distribution dist;
    if (fromProbs) {
        dist.logits = logitsFromProbabilities(parser.value(QStringLiteral("probs")));
    } else if (fromFile) {
        auto read = app::readLogitsFile(parser.value(QStringLiteral("logits-file")));
        if (!read)
            throw UsageError{fromStd(read.error())};
        dist = std::move(read).value();
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
    return dist;
}

}  // namespace

QList<QCommandLineOption> samplerOptions()
{
    QList<QCommandLineOption> options{
        {QStringLiteral("logits"), QStringLiteral("Comma-separated logits, e.g. 3,2,1.5,1,-2 (-inf allowed)."),
         QStringLiteral("list")},
        {QStringLiteral("logits-file"),
         QStringLiteral("File with one logit per line, or token,logit CSV rows."), QStringLiteral("file")},
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
            options.append({QString::fromLatin1(p.name), QString::fromLatin1(p.help), QString::fromLatin1(p.valueName)});
    return options;
}

engine::Distribution readDistributionOptions(const QCommandLineParser& parser)
{
    return readDistribution(parser);
}

SamplerInput readSamplerOptions(const QCommandLineParser& parser)
{
    SamplerInput input;
    input.distribution = readDistribution(parser);
    if (parser.isSet(QStringLiteral("temperature")))
        input.settings.temperature = doubleOption(parser, QStringLiteral("temperature"));
    if (parser.isSet(QStringLiteral("top-k"))) {
        const engine::SamplerParameter& topK = *engine::findSamplerParameter("top-k");
        input.settings.topK = static_cast<int>(integerOption(parser, QStringLiteral("top-k"), static_cast<qint64>(topK.minimum),
                                                             static_cast<qint64>(topK.maximum)));
    }
    if (parser.isSet(QStringLiteral("top-p")))
        input.settings.topP = doubleOption(parser, QStringLiteral("top-p"));
    if (auto problem = engine::validateSettings(input.settings))
        throw UsageError{fromStd(*problem)};
    return input;
}

}  // namespace logitlab::cli
