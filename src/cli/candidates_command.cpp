#include "candidates_command.h"

#include "candidates.h"
#include "number_format.h"
#include "sampler_options.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace logitlab::cli {

QJsonObject settingsJson(const engine::SamplerSettings& settings)
{
    QJsonObject json{{QStringLiteral("temperature"), settings.temperature}};
    if (settings.topK)
        json.insert(QStringLiteral("topK"), *settings.topK);
    if (settings.topP)
        json.insert(QStringLiteral("topP"), *settings.topP);
    return json;
}

int runCandidates(CommandContext& context)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Print the tokens that survive softmax at T, top-k and top-p, with their probabilities\n"
                       "before (p_raw) and after (p) renormalising. Temperature 0 is greedy."));
    addSamplerOptions(parser);
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print one JSON object.")});
    if (!parseOrThrow(parser, context.arguments, context.out))
        return 0;

    const SamplerInput input = readSamplerOptions(parser);
    const engine::CandidateList survivors = engine::candidates(input.distribution.logits, input.settings);

    if (parser.isSet(QStringLiteral("json"))) {
        QJsonArray list;
        for (const auto& c : survivors)
            list.append(QJsonObject{{QStringLiteral("id"), c.id},
                                    {QStringLiteral("token"), QString::fromStdString(input.distribution.tokenName(c.id))},
                                    {QStringLiteral("p"), c.p},
                                    {QStringLiteral("p_raw"), c.pRaw}});
        const QJsonObject root{{QStringLiteral("survivors"), list},
                               {QStringLiteral("settings"), settingsJson(input.settings)}};
        context.out << QJsonDocument(root).toJson(QJsonDocument::Compact) << '\n';
        return 0;
    }

    context.out << "settings: " << QString::fromStdString(engine::describeSettings(input.settings)) << '\n'
                << "survivors: " << survivors.size() << " of " << input.distribution.logits.size() << '\n';
    context.out << QStringLiteral("%1  %2  %3  %4\n").arg(QStringLiteral("id"), 6).arg(QStringLiteral("token"), -16)
                       .arg(QStringLiteral("p"), -22).arg(QStringLiteral("p_raw"));
    for (const auto& c : survivors)
        context.out << QStringLiteral("%1  %2  %3  %4\n")
                           .arg(c.id, 6)
                           .arg(QString::fromStdString(input.distribution.tokenName(c.id)), -16)
                           .arg(QString::fromStdString(engine::formatDouble(c.p)), -22)
                           .arg(QString::fromStdString(engine::formatDouble(c.pRaw)));
    return 0;
}

}  // namespace logitlab::cli
