#include "cli/chain_options.h"

#include "app/text/sampler_settings_json.h"
#include "cli/sampler_options.h"
#include "engine/core/number_format.h"
#include "engine/io/logits_parser.h"
#include "engine/models/token_reference.h"
#include "engine/sampler/chain_evaluation.h"
#include "engine/sampler/chain_text.h"
#include "engine/sampler/sampler_parameters.h"
#include "engine/stages/logit_bias_stage.h"

#include <cmath>

namespace logitlab::cli {

namespace {

QString fromStd(const std::string& s) { return QString::fromStdString(s); }

// The table's token names, for --history and the token-list options: a token by name, "#id" or
// a plain id (engine/models/token_reference, as in the Explorer's fields).
std::vector<std::string> tokenNames(const engine::Distribution& distribution)
{
    return distribution.tokens.empty() ? std::vector<std::string>(static_cast<std::size_t>(distribution.logits.size()))
                                       : distribution.tokens;
}

template <class T>
T orUsageError(engine::Result<T> result)
{
    if (!result)
        throw UsageError{fromStd(result.error())};
    return std::move(result).value();
}

}  // namespace

QList<QCommandLineOption> chainOptions()
{
    QList<QCommandLineOption> options{
        {QStringLiteral("semantics"),
         QStringLiteral("Whose rules: lesson (default), llama.cpp, hf or vllm. See docs/semantics.md."),
         QStringLiteral("name"), QStringLiteral("lesson")},
        {QStringLiteral("chain"),
         QStringLiteral("The chain as text, in order, e.g. top-k=40,top-p=0.95,min-p=0.05,temperature=0.8."),
         QStringLiteral("stages")},
        {QStringLiteral("defaults"), QStringLiteral("Start from the library's default values.")},
        {QStringLiteral("history"),
         QStringLiteral("Tokens already generated, oldest first, by id or name (penalties, DRY, n-grams)."),
         QStringLiteral("ids")},
    };
    return options + parameterOptions(false);  // samplerOptions() has the lesson's three
}

ChainRequest readChainOptions(const QCommandLineParser& parser)
{
    ChainRequest request;
    const QString semantics = parser.value(QStringLiteral("semantics"));
    const auto parsed = engine::parseSemantics(semantics.toStdString());
    if (!parsed)
        throw UsageError{QStringLiteral("semantics: unknown preset '%1' (lesson, llama.cpp, hf, vllm)").arg(semantics)};
    request.semantics = *parsed;
    request.defaults = parser.isSet(QStringLiteral("defaults"));

    auto& s = request.settings;
    bool beyondLesson = false;
    for (const engine::SamplerParameter& p : engine::samplerParameters()) {
        const QString name = QString::fromLatin1(p.name);
        if (!parser.isSet(name))
            continue;
        if (p.choice) {
            // --arithmetic applies to --chain as well, and the lesson has only its own arithmetic.
            s.*p.choice = parser.value(name).toStdString();
            if (auto bad = engine::checkArithmetic(s.*p.choice))
                throw UsageError{fromStd(*bad)};
            continue;
        }
        if (p.list)
            request.tokenLists.emplace_back(&p, parser.value(name));
        else
            s.*p.field = doubleOption(parser, name);
        beyondLesson = beyondLesson || p.group != engine::ParameterGroup::Lesson;
    }
    if (parser.isSet(QStringLiteral("history")))
        request.history = parser.value(QStringLiteral("history"));

    if (parser.isSet(QStringLiteral("chain"))) {
        if (beyondLesson || s.temperature || s.topK || s.topP)
            throw UsageError{
                QStringLiteral("chain: give either --chain or per-stage options such as --top-k, not both")};
        if (request.defaults)
            throw UsageError{QStringLiteral("chain: --defaults applies to the preset's chain, not to --chain")};
        request.chainText = parser.value(QStringLiteral("chain")).toStdString();
    }
    request.lessonOptionsOnly =
        request.semantics == engine::Semantics::Lesson && !beyondLesson && !request.chainText && !request.defaults;
    return request;
}

void buildRequestedChain(PreparedChain& prepared, const ChainRequest& request, engine::Semantics semantics)
{
    const std::vector<std::string> names = tokenNames(prepared.distribution);
    prepared.history = orUsageError(engine::parseTokenReferences(request.history.toStdString(), names, "history"));
    prepared.settings = request.settings;
    for (const auto& [parameter, text] : request.tokenLists) {
        const std::string typed = text.toStdString();
        prepared.settings.*parameter->list =
            parameter->list == &engine::ChainSettings::logitBias
                ? orUsageError(engine::parseBiasReferences(typed, names, parameter->name))
                : engine::stageListFromIds(orUsageError(engine::parseTokenReferences(typed, names, parameter->name)));
    }

    auto chain = request.chainText
                     ? engine::parseChain(*request.chainText, semantics)
                     : engine::buildChain(request.defaults ? engine::withLibraryDefaults(prepared.settings, semantics)
                                                           : prepared.settings,
                                          semantics);
    if (!chain)
        throw UsageError{fromStd(chain.error())};
    const auto vocabSize = static_cast<std::size_t>(prepared.distribution.logits.size());
    for (const auto& stage : chain->stages())
        if (const auto* bias = dynamic_cast<const engine::LogitBiasStage*>(stage.get()))
            if (auto bad = bias->checkVocabulary(vocabSize))
                throw UsageError{fromStd(*bad)};
    prepared.chain = std::move(chain).value();
    prepared.chain.setArithmetic(engine::resolveArithmetic(request.settings.arithmetic, semantics));
}

PreparedChain prepareChain(const QCommandLineParser& parser, const ChainRequest& request, engine::Semantics semantics)
{
    PreparedChain prepared;
    DistributionInput input = semantics == engine::Semantics::Lesson && request.lessonOptionsOnly
                                  ? readSamplerOptions(parser).input  // the lesson's checks and messages
                                  : readDistributionOptions(parser);
    prepared.distribution = std::move(input.distribution);
    prepared.rawTokens = std::move(input.rawTokens);
    prepared.vocabularyNote = std::move(input.vocabularyNote);
    buildRequestedChain(prepared, request, semantics);
    return prepared;
}

QJsonObject chainSettingsJson(const engine::ChainSettings& s)
{
    engine::ChainSettings shown = s;
    shown.temperature = s.temperature.value_or(1.0);
    return app::samplerSettingsToJson(shown);
}

QJsonObject requestedSettingsJson(const ChainRequest& request, const PreparedChain& prepared)
{
    const auto lesson = engine::lessonFastPath(prepared.chain);
    if (lesson && (request.chainText || request.lessonOptionsOnly))
        return app::samplerSettingsToJson(*lesson);
    return chainSettingsJson(prepared.settings);
}

Eigen::ArrayXd logitsFromProbabilities(const QString& text)
{
    auto values = engine::parseNumberList(text.toStdString(), "probs");
    if (!values)
        throw UsageError{fromStd(values.error())};
    Eigen::ArrayXd logits(static_cast<Eigen::Index>(values->size()));
    bool anyPositive = false;
    for (std::size_t i = 0; i < values->size(); ++i) {
        const double p = (*values)[i];
        if (!(p >= 0.0 && p <= 1.0))
            throw UsageError{QStringLiteral("probs: item %1: %2 is not a probability in [0, 1]")
                                 .arg(i + 1)
                                 .arg(fromStd(engine::formatDouble(p)))};
        anyPositive = anyPositive || p > 0.0;
        logits[static_cast<Eigen::Index>(i)] = std::log(p);
    }
    if (!anyPositive)
        throw UsageError{QStringLiteral("probs: every probability is 0")};
    return logits;
}

}  // namespace logitlab::cli
