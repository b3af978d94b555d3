#include "cli/candidates_command.h"

#include "app/text/chain_json.h"
#include "app/text/one_line_text.h"
#include "cli/chain_options.h"
#include "cli/compare_command.h"
#include "cli/sampler_options.h"
#include "engine/core/number_format.h"
#include "engine/sampler/chain_evaluation.h"
#include "engine/sampler/chain_text.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace logitlab::cli {

QJsonArray survivorsJson(const engine::CandidateList& survivors, const engine::Distribution& distribution,
                         const std::vector<std::string>& rawTokens)
{
    QJsonArray list;
    for (const auto& c : survivors) {
        QJsonObject row{{QStringLiteral("id"), c.id},
                        {QStringLiteral("token"), QString::fromStdString(distribution.tokenName(c.id))},
                        {QStringLiteral("p"), c.p},
                        {QStringLiteral("p_raw"), c.pRaw}};
        if (static_cast<Eigen::Index>(rawTokens.size()) == distribution.logits.size())
            row.insert(QStringLiteral("raw"), QString::fromStdString(rawTokens[static_cast<std::size_t>(c.id)]));
        list.append(row);
    }
    return list;
}

void printVocabularyNote(CommandContext& context, const PreparedChain& prepared)
{
    if (!prepared.vocabularyNote.empty())
        context.err << "note: " << QString::fromStdString(prepared.vocabularyNote) << '\n';
}

CommandSpec candidatesCommand()
{
    return {QStringLiteral("candidates"),
            QStringLiteral("the tokens that survive the sampler, with their probabilities"),
            QStringLiteral("Print the tokens that survive the sampler chain, with their probabilities\n"
                           "before (p_raw) and after (p) renormalising. Temperature 0 is greedy.\n"
                           "--semantics picks whose rules apply; --compare shows all four side by side."),
            {},
            {},
            samplerOptions() + chainOptions() +
                QList<QCommandLineOption>{
                    {QStringLiteral("compare"), QStringLiteral("Show the survivors under all four presets.")},
                    {QStringLiteral("json"), QStringLiteral("Print one JSON object.")},
                },
            runCandidates};
}

int runCandidates(CommandContext& context)
{
    QCommandLineParser parser;
    declareCommand(parser, candidatesCommand());
    if (!parseOrThrow(parser, context.arguments, context.out))
        return 0;

    const ChainRequest request = readChainOptions(parser);
    const bool json = parser.isSet(QStringLiteral("json"));
    if (parser.isSet(QStringLiteral("compare")))
        return runCompare(context, parser, request, json);

    PreparedChain prepared = prepareChain(parser, request, request.semantics);
    printVocabularyNote(context, prepared);
    engine::SamplerContext samplerContext;
    samplerContext.history = prepared.history;
    const engine::CandidateList survivors =
        engine::evaluateChain(prepared.chain, prepared.distribution.logits, samplerContext);
    const auto& distribution = prepared.distribution;
    const auto lesson = engine::lessonFastPath(prepared.chain);

    if (json) {
        const QJsonObject root{
            {QStringLiteral("survivors"), survivorsJson(survivors, distribution, prepared.rawTokens)},
            {QStringLiteral("settings"), requestedSettingsJson(request, prepared)},
            {QStringLiteral("semantics"), QString::fromStdString(engine::semanticsName(request.semantics))},
            {QStringLiteral("arithmetic"), QString::fromStdString(engine::arithmeticName(prepared.chain.arithmetic()))},
            {QStringLiteral("chain"), app::chainToJson(prepared.chain, true)}};
        context.out << QJsonDocument(root).toJson(QJsonDocument::Compact) << '\n';
        return 0;
    }

    if (lesson)
        context.out << "settings: " << QString::fromStdString(engine::describeSettings(*lesson)) << '\n';
    context.out << "semantics: " << QString::fromStdString(engine::semanticsName(request.semantics)) << '\n'
                << "arithmetic: " << QString::fromStdString(engine::arithmeticName(prepared.chain.arithmetic())) << '\n'
                << "chain: " << QString::fromStdString(engine::formatChain(prepared.chain, true)) << '\n'
                << "survivors: " << survivors.size() << " of " << distribution.logits.size() << '\n';
    context.out << QStringLiteral("%1  %2  %3  %4\n")
                       .arg(QStringLiteral("id"), 6)
                       .arg(QStringLiteral("token"), -16)
                       .arg(QStringLiteral("p"), -22)
                       .arg(QStringLiteral("p_raw"));
    for (const auto& c : survivors)
        context.out << QStringLiteral("%1  %2  %3  %4\n")
                           .arg(c.id, 6)
                           .arg(app::terminalText(QString::fromStdString(distribution.tokenName(c.id))), -16)
                           .arg(QString::fromStdString(engine::formatDouble(c.p)), -22)
                           .arg(QString::fromStdString(engine::formatDouble(c.pRaw)));
    return 0;
}

}  // namespace logitlab::cli
