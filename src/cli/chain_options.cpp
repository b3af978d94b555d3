#include "chain_options.h"

#include "chain_text.h"
#include "logit_bias_stage.h"
#include "logits_parser.h"
#include "number_format.h"
#include "sampler_options.h"

#include <cmath>

namespace logitlab::cli {

namespace {

QString fromStd(const std::string& s)
{
    return QString::fromStdString(s);
}

std::vector<std::int32_t> readIdList(const QString& option, const QString& text)
{
    std::vector<std::int32_t> ids;
    if (text.trimmed().isEmpty())
        return ids;
    const QStringList items = text.split(QLatin1Char(','));
    for (qsizetype i = 0; i < items.size(); ++i) {
        bool ok = false;
        const int id = items[i].trimmed().toInt(&ok);
        if (!ok || id < 0)
            throw UsageError{QStringLiteral("%1: item %2: '%3' is not a token id").arg(option).arg(i + 1).arg(items[i])};
        ids.push_back(id);
    }
    return ids;
}

// "5:-1.5,7:2" -> "5@-1.5/7@2", the stage's own spelling.
std::string readLogitBias(const QString& text)
{
    std::string out;
    const QStringList items = text.split(QLatin1Char(','));
    for (qsizetype i = 0; i < items.size(); ++i) {
        const QStringList parts = items[i].trimmed().split(QLatin1Char(':'));
        bool ok = false;
        const int id = parts.value(0).toInt(&ok);
        const auto value = parts.size() == 2 ? engine::parseDouble(parts[1].trimmed().toStdString()) : std::nullopt;
        if (parts.size() != 2 || !ok || id < 0 || !value || std::isnan(*value) || *value == INFINITY)
            throw UsageError{QStringLiteral("logit-bias: item %1: '%2' is not id:value (value a number or -inf)")
                                 .arg(i + 1)
                                 .arg(items[i])};
        out += (out.empty() ? "" : "/") + std::to_string(id) + "@" + engine::formatDouble(*value);
    }
    return out;
}

}  // namespace

void addChainOptions(QCommandLineParser& parser)
{
    parser.addOptions({
        {QStringLiteral("semantics"),
         QStringLiteral("Whose rules: lesson (default), llama.cpp, hf or vllm. See docs/semantics.md."),
         QStringLiteral("name"), QStringLiteral("lesson")},
        {QStringLiteral("chain"),
         QStringLiteral("The chain as text, in order, e.g. top-k=40,top-p=0.95,min-p=0.05,temperature=0.8."),
         QStringLiteral("stages")},
        {QStringLiteral("defaults"), QStringLiteral("Start from the library's default values.")},
        {QStringLiteral("history"), QStringLiteral("Tokens already generated, oldest first (penalties, DRY, n-grams)."),
         QStringLiteral("ids")},
        {QStringLiteral("logit-bias"), QStringLiteral("Per-token bias, id:value,... (-inf bans)."),
         QStringLiteral("list")},
        {QStringLiteral("dry-breakers"), QStringLiteral("DRY sequence-breaker token ids, comma-separated."),
         QStringLiteral("ids")},
    });
    for (const auto& o : engine::chainSettingFields())
        parser.addOption({QString::fromLatin1(o.name), QString::fromLatin1(o.help), QStringLiteral("value")});
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
    const auto read = [&parser](const char* name, std::optional<double>& field) {
        if (parser.isSet(QString::fromLatin1(name)))
            field = doubleOption(parser, QString::fromLatin1(name));
    };
    read("temperature", s.temperature);
    read("top-k", s.topK);
    read("top-p", s.topP);
    bool beyondLesson = false;
    for (const auto& o : engine::chainSettingFields()) {
        read(o.name, s.*o.field);
        beyondLesson = beyondLesson || (s.*o.field).has_value();
    }
    if (parser.isSet(QStringLiteral("logit-bias")))
        s.logitBias = readLogitBias(parser.value(QStringLiteral("logit-bias")));
    if (parser.isSet(QStringLiteral("dry-breakers"))) {
        for (std::int32_t id : readIdList(QStringLiteral("dry-breakers"), parser.value(QStringLiteral("dry-breakers"))))
            s.dryBreakers += (s.dryBreakers.empty() ? "" : "/") + std::to_string(id);
    }
    if (parser.isSet(QStringLiteral("history")))
        request.history = readIdList(QStringLiteral("history"), parser.value(QStringLiteral("history")));

    const bool stageOptions = beyondLesson || s.temperature || s.topK || s.topP || !s.logitBias.empty()
        || !s.dryBreakers.empty();
    if (parser.isSet(QStringLiteral("chain"))) {
        if (stageOptions)
            throw UsageError{QStringLiteral("chain: give either --chain or per-stage options such as --top-k, not both")};
        if (request.defaults)
            throw UsageError{QStringLiteral("chain: --defaults applies to the preset's chain, not to --chain")};
        request.chainText = parser.value(QStringLiteral("chain")).toStdString();
    }
    request.lessonOptionsOnly = request.semantics == engine::Semantics::Lesson && !beyondLesson
        && s.logitBias.empty() && s.dryBreakers.empty() && !request.chainText && !request.defaults;
    return request;
}

engine::SamplerChain buildRequestedChain(const ChainRequest& request, engine::Semantics semantics,
                                         std::size_t vocabSize)
{
    for (std::int32_t id : request.history)
        if (static_cast<std::size_t>(id) >= vocabSize)
            throw UsageError{QStringLiteral("history: token %1 is outside the vocabulary of %2").arg(id).arg(vocabSize)};

    auto chain = request.chainText
        ? engine::parseChain(*request.chainText, semantics)
        : engine::buildChain(request.defaults ? engine::withLibraryDefaults(request.settings, semantics)
                                              : request.settings,
                             semantics);
    if (!chain)
        throw UsageError{fromStd(chain.error())};
    for (const auto& stage : chain->stages())
        if (const auto* bias = dynamic_cast<const engine::LogitBiasStage*>(stage.get()))
            if (auto bad = bias->checkVocabulary(vocabSize))
                throw UsageError{fromStd(*bad)};
    return std::move(chain).value();
}

PreparedChain prepareChain(const QCommandLineParser& parser, const ChainRequest& request, engine::Semantics semantics)
{
    PreparedChain prepared;
    if (semantics == engine::Semantics::Lesson && request.lessonOptionsOnly) {
        SamplerInput input = readSamplerOptions(parser);  // the lesson's checks and messages
        prepared.distribution = std::move(input.distribution);
    } else {
        prepared.distribution = readDistributionOptions(parser);
    }
    prepared.chain = buildRequestedChain(request, semantics, static_cast<std::size_t>(prepared.distribution.logits.size()));
    return prepared;
}

QJsonObject chainSettingsJson(const engine::ChainSettings& s)
{
    QJsonObject json{{QStringLiteral("temperature"), s.temperature.value_or(1.0)}};
    if (s.topK)
        json.insert(QStringLiteral("topK"), *s.topK);
    if (s.topP)
        json.insert(QStringLiteral("topP"), *s.topP);
    for (const auto& o : engine::chainSettingFields())
        if ((s.*o.field).has_value())
            json.insert(QString::fromLatin1(o.name), *(s.*o.field));
    if (!s.logitBias.empty())
        json.insert(QStringLiteral("logit-bias"), fromStd(s.logitBias));
    if (!s.dryBreakers.empty())
        json.insert(QStringLiteral("dry-breakers"), fromStd(s.dryBreakers));
    return json;
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
